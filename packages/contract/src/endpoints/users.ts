/** Accounts: registration, the administrators' list and flags, one account. */
import Type from 'typebox';

import { LIMITS } from '../validation.ts';
import { listDocument, numericPathParam, pageQuery, resource, resourceBody, singleDocument, sortQuery } from './common.ts';
import { endpoint } from './define.ts';

const tags = ['Users'];
const ONLY_OWN = 'Only for the user and administrators';

/** A user: to anyone but the user and admins (a public filter's reader) only the name and username. */
export const User = resource('user', {
  username: Type.String(),
  name: Type.String(),
  email: Type.Optional(Type.String({ description: ONLY_OWN })),
  admin: Type.Optional(Type.Boolean({ description: ONLY_OWN })),
  staff: Type.Optional(Type.Boolean({ description: ONLY_OWN })),
  created_at: Type.Optional(Type.String({ format: 'date-time', description: ONLY_OWN })),
});

const userId = Type.Object({ userId: numericPathParam('user') });

export const createUser = endpoint({
  method: 'POST',
  path: '/v1/users',
  operationId: 'create_user',
  access: 'public',
  tags,
  summary: 'Register an account',
  body: resourceBody(
    'user',
    Type.Object({
      name: Type.String(),
      username: Type.String({ minLength: LIMITS.usernameMin, maxLength: LIMITS.usernameMax }),
      email: Type.String({ format: 'email' }),
      password: Type.String({
        format: 'password',
        minLength: LIMITS.passwordMin,
        maxLength: LIMITS.passwordMax,
        description: 'With a digit and a capital letter',
      }),
    }),
  ),
  response: { status: 201, description: 'The new user resource', schema: singleDocument(User) },
  errors: { 400: 'A field is missing or invalid (each problem named)', 409: 'The username is taken or reserved' },
});

export const listUsers = endpoint({
  method: 'GET',
  path: '/v1/users',
  operationId: 'list_users',
  access: 'admin',
  tags,
  summary: 'All accounts',
  query: Type.Object({ ...pageQuery(100), ...sortQuery('username', 'One of id, username, email, name, created_at, admin, staff.') }),
  response: { status: 200, description: 'A page of user resources; meta.count, links.next', schema: listDocument(User) },
  errors: { 400: 'Bad page or sort field' },
});

export const getUser = endpoint({
  method: 'GET',
  path: '/v1/users/:userId',
  operationId: 'get_user',
  access: 'login',
  tags,
  summary: 'One account',
  description: 'Only the user or an admin may call it for this user.',
  params: userId,
  response: { status: 200, description: 'A user resource', schema: singleDocument(User) },
  errors: { 403: "Another user's account", 404: 'No such user' },
});

export const updateUser = endpoint({
  method: 'PATCH',
  path: '/v1/users/:userId',
  operationId: 'update_user',
  access: 'admin',
  tags,
  summary: 'Grant or withdraw admin and staff',
  params: userId,
  body: {
    ...resourceBody('user', Type.Object({ admin: Type.Optional(Type.Boolean()), staff: Type.Optional(Type.Boolean()) })),
    description: 'At least one of admin and staff.',
  },
  response: { status: 200, description: 'The updated user resource', schema: singleDocument(User) },
  errors: { 400: 'Neither admin nor staff given, or not true/false', 404: 'No such user' },
});
