import {
  createDeveloperApp,
  deleteDeveloperApp,
  listDeveloperApps,
  rotateDeveloperAppSecret,
} from '../../flows/developer-apps';
import {
  createDeveloperAppSchema,
  DEVELOPER_APP_CREATE_PATH,
  DEVELOPER_APP_DELETE_PATH,
  DEVELOPER_APP_ROTATE_PATH,
  DEVELOPER_APPS_PATH,
  DeveloperAppSecret,
  DeveloperApps,
  deleteDeveloperAppSchema,
  developerAppsSchema,
  rotateDeveloperAppSchema,
} from '../../schemas/developer-apps';
import { type FlowRoute, flowRoute } from '../declare';

/** The developer console (web family, signed in; the web app's /developer page). */
export const DEVELOPER_APP_ROUTES: readonly FlowRoute[] = [
  flowRoute({
    method: 'GET',
    schema: developerAppsSchema,
    data: DeveloperApps,
    at: [['web', DEVELOPER_APPS_PATH]],
    run: (app, request) => listDeveloperApps(app, request),
  }),
  flowRoute({
    method: 'POST',
    schema: createDeveloperAppSchema,
    data: DeveloperAppSecret,
    at: [['web', DEVELOPER_APP_CREATE_PATH]],
    run: (app, request) => createDeveloperApp(app, request, request.body),
  }),
  flowRoute({
    method: 'POST',
    schema: rotateDeveloperAppSchema,
    data: DeveloperAppSecret,
    at: [['web', DEVELOPER_APP_ROTATE_PATH]],
    run: (app, request) => rotateDeveloperAppSecret(app, request, request.body.client_key),
  }),
  flowRoute({
    method: 'POST',
    schema: deleteDeveloperAppSchema,
    data: DeveloperApps,
    at: [['web', DEVELOPER_APP_DELETE_PATH]],
    run: (app, request) => deleteDeveloperApp(app, request, request.body.client_key),
  }),
];
