import { profileResponse } from '@rally/shared/contracts/auth';
import { messageEnvelope, uuidParam } from '@rally/shared/contracts/common';
import { myDetailsBody } from '@rally/shared/contracts/rider-details';
import {
  kitSizesBody,
  listUsersQuery,
  masterlistQuery,
  masterlistResponse,
  roleBody,
  statusBody,
  updateUserBody,
  userResponse,
  usersListResponse,
} from '@rally/shared/contracts/users';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import type { FileStore } from '../../lib/file-store';
import { responses } from '../../lib/route-helpers';
import { updateMyDetails } from './my-details.service';
import { getAdminUser, listUsers, masterlist } from './users.queries';
import { deleteUser, setKitSizes, setUserRole, setUserStatus, updateUser } from './users.service';

export async function userRoutes(app: FastifyInstance, opts: { db: Db; fileStore: FileStore }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin: users'];

  r.get('/admin/users', {
    config: { access: { permission: 'view_users' } },
    schema: { tags, querystring: listUsersQuery, response: responses({ 200: usersListResponse }) },
    handler: async (request) => ({
      success: true as const,
      data: await listUsers(db, requireAuth(request).role, request.query, request.edition),
    }),
  });

  r.get('/admin/users/:id', {
    config: { access: { permission: 'view_users' } },
    schema: { tags, params: uuidParam, response: responses({ 200: userResponse }) },
    handler: async (request) => ({
      success: true as const,
      data: { user: await getAdminUser(db, requireAuth(request).role, request.params.id, request.edition) },
    }),
  });

  r.patch('/admin/users/:id', {
    config: { access: { permission: 'edit_user_info' } },
    schema: { tags, params: uuidParam, body: updateUserBody, response: responses({ 200: userResponse }) },
    handler: async (request) => ({
      success: true as const,
      message: 'User updated successfully',
      data: { user: await updateUser(db, requireAuth(request), request.params.id, request.body) },
    }),
  });

  r.delete('/admin/users/:id', {
    config: { access: { permission: 'delete_user' } },
    schema: { tags, params: uuidParam, response: responses({ 200: messageEnvelope }) },
    handler: async (request) => {
      await deleteUser(db, requireAuth(request), request.params.id, opts.fileStore);
      return { success: true as const, message: 'User deleted successfully' };
    },
  });

  r.patch('/admin/users/:id/status', {
    config: { access: { permission: 'edit_user_info' } },
    schema: { tags, params: uuidParam, body: statusBody, response: responses({ 200: userResponse }) },
    handler: async (request) => {
      const user = await setUserStatus(db, requireAuth(request), request.params.id, request.body.status);
      return {
        success: true as const,
        message: user.status === 'active' ? 'User activated' : 'User deactivated',
        data: { user },
      };
    },
  });

  r.patch('/admin/users/:id/role', {
    config: { access: { permission: 'edit_user_role' } },
    schema: { tags, params: uuidParam, body: roleBody, response: responses({ 200: userResponse }) },
    handler: async (request) => ({
      success: true as const,
      message: 'Role updated',
      data: { user: await setUserRole(db, requireAuth(request), request.params.id, request.body.roleId) },
    }),
  });

  r.put('/admin/users/:id/kit-sizes', {
    config: { access: { permission: 'edit_user_info' } },
    schema: { tags, params: uuidParam, body: kitSizesBody, response: responses({ 200: userResponse }) },
    handler: async (request) => ({
      success: true as const,
      message: 'Kit sizes updated',
      data: { user: await setKitSizes(db, requireAuth(request), request.params.id, request.body) },
    }),
  });

  r.patch('/my/details', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['users'],
      description:
        'The signed-in user edits their own phone, address, emergency contact and medical notes. Only sent fields change; blank clears phone, address and medical notes; the emergency contact cannot be removed and its number must be a Philippine mobile. Unknown fields are refused. Audited.',
      body: myDetailsBody,
      response: responses({ 200: profileResponse }),
    },
    handler: async (request) => ({
      success: true as const,
      message: 'Your details have been updated',
      data: { user: await updateMyDetails(db, requireAuth(request), request.body) },
    }),
  });

  r.get('/admin/masterlist', {
    config: { access: { permission: 'view_masterlist' } },
    schema: {
      tags: ['admin: masterlist'],
      querystring: masterlistQuery,
      response: responses({ 200: masterlistResponse }),
    },
    handler: async (request) => ({
      success: true as const,
      data: await masterlist(db, requireAuth(request).role, request.query, request.edition),
    }),
  });
}
