// Calls of User Management and the Participant Masterlist.
import type { Role } from '@rally/shared/catalog/accounts';
import type { AdminUser, KitSizesBody, UpdateUserBody } from '@rally/shared/contracts/users';
import { type ApiQuery, call, client } from '../../../lib/api-client';

type UsersQuery = ApiQuery<'/api/admin/users'>;

/** The list's filters; 'all' (and an empty search) filters nothing and is not sent. */
export interface UsersFilters {
  page: number;
  search: string;
  role: NonNullable<UsersQuery['role']> | 'all';
  category: NonNullable<UsersQuery['category']> | 'all';
  riderNumber: NonNullable<UsersQuery['riderNumber']>;
}

const user = (id: string) => ({ params: { path: { id } } });

export async function fetchUsers({ page, search, role, category, riderNumber }: UsersFilters, limit: number) {
  const query = {
    search: search || undefined,
    role: role === 'all' ? undefined : role,
    category: category === 'all' ? undefined : category,
    riderNumber: riderNumber === 'all' ? undefined : riderNumber,
    page,
    limit,
  };
  return (await call(client.GET('/api/admin/users', { params: { query } }))).data;
}

export async function fetchUser(id: string): Promise<AdminUser> {
  return (await call(client.GET('/api/admin/users/{id}', user(id)))).data.user;
}

export async function updateUser(id: string, body: UpdateUserBody): Promise<AdminUser> {
  return (await call(client.PATCH('/api/admin/users/{id}', { ...user(id), body }))).data.user;
}

export async function setUserStatus(id: string, status: 'active' | 'inactive'): Promise<AdminUser> {
  return (await call(client.PATCH('/api/admin/users/{id}/status', { ...user(id), body: { status } }))).data.user;
}

export async function setUserRole(id: string, roleId: Role): Promise<AdminUser> {
  return (await call(client.PATCH('/api/admin/users/{id}/role', { ...user(id), body: { roleId } }))).data.user;
}

export async function setKitSizes(id: string, body: KitSizesBody): Promise<AdminUser> {
  return (await call(client.PUT('/api/admin/users/{id}/kit-sizes', { ...user(id), body }))).data.user;
}

export async function deleteUser(id: string): Promise<void> {
  await call(client.DELETE('/api/admin/users/{id}', user(id)));
}

export async function fetchMasterlist({ page, search, limit }: { page: number; search: string; limit: number }) {
  const query = { page, search: search || undefined, limit };
  return (await call(client.GET('/api/admin/masterlist', { params: { query } }))).data;
}
