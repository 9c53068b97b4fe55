// Calls of User Management and the Participant Masterlist.
import type { Role } from '@rally/shared/catalog';
import type { Pagination } from '@rally/shared/contracts/common';
import type { AdminUser, KitSizesBody, MasterlistStats, UpdateUserBody } from '@rally/shared/contracts/users';
import { api } from '../../../lib/api-client';

interface Envelope<T> {
  success: boolean;
  data: T;
  message?: string;
}

export interface UsersFilters {
  page: number;
  search: string;
  role: string;
  category: string;
  riderNumber: string;
}

function query(params: Record<string, string | number>): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== '' && value !== 'all') q.set(key, String(value));
  }
  const text = q.toString();
  return text ? `?${text}` : '';
}

const userPath = (id: string) => `/admin/users/${encodeURIComponent(id)}`;

export async function fetchUsers(
  filters: UsersFilters,
  limit: number,
): Promise<{ users: AdminUser[]; pagination: Pagination }> {
  const res = await api.get<Envelope<{ users: AdminUser[]; pagination: Pagination }>>(
    `/admin/users${query({ ...filters, limit })}`,
  );
  return res.data;
}

export async function fetchUser(id: string): Promise<AdminUser> {
  return (await api.get<Envelope<{ user: AdminUser }>>(userPath(id))).data.user;
}

export async function updateUser(id: string, body: UpdateUserBody): Promise<AdminUser> {
  return (await api.patch<Envelope<{ user: AdminUser }>>(userPath(id), body)).data.user;
}

export async function setUserStatus(id: string, status: 'active' | 'inactive'): Promise<AdminUser> {
  return (await api.patch<Envelope<{ user: AdminUser }>>(`${userPath(id)}/status`, { status })).data.user;
}

export async function setUserRole(id: string, roleId: Role): Promise<AdminUser> {
  return (await api.patch<Envelope<{ user: AdminUser }>>(`${userPath(id)}/role`, { roleId })).data.user;
}

export async function setKitSizes(id: string, body: KitSizesBody): Promise<AdminUser> {
  return (await api.put<Envelope<{ user: AdminUser }>>(`${userPath(id)}/kit-sizes`, body)).data.user;
}

export async function deleteUser(id: string): Promise<void> {
  await api.delete(userPath(id));
}

export interface MasterlistPage {
  participants: AdminUser[];
  stats: MasterlistStats;
  pagination: Pagination;
}

export async function fetchMasterlist(params: {
  page: number;
  search: string;
  limit: number;
}): Promise<MasterlistPage> {
  return (await api.get<Envelope<MasterlistPage>>(`/admin/masterlist${query(params)}`)).data;
}

export interface ResetLinkResult {
  resetUrl: string;
  resetToken: string;
  expiresAt: string;
}

/** Built by the password-resets module; the masterlist's Reset button uses it too. */
export async function generateResetLink(userId: string): Promise<ResetLinkResult> {
  return (await api.post<Envelope<ResetLinkResult>>('/admin/password-resets/generate', { userId })).data;
}
