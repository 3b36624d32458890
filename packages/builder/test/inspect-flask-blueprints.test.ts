/**
 * Flask blueprint prefixes as Flask applies them: `register_blueprint(bp, url_prefix=…)` takes the
 * place of the prefix the Blueprint was built with (it does not stack on it), a prefix given only at
 * construction holds wherever the routes are declared, and nested blueprints join their parent's.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';

const project = tempProjects('flask-bp', { 'requirements.txt': 'flask\n' });

const lines = (...text: string[]): string => `${text.join('\n')}\n`;
const routes = (endpoints: readonly { method: string; route: string; location: string }[]): string[] => endpoints.map((e) => `${e.method} ${e.route} @ ${e.location}`);
const view = (bp: string, path: string, name: string): string[] => [`@${bp}.route("${path}", methods=["POST"])`, `def ${name}():`, '    return None'];

describe('Flask blueprint prefixes', () => {
  it('a url_prefix given at registration replaces the one the Blueprint was built with', async () => {
    const dir = project({
      'shop/orders.py': lines('from flask import Blueprint', 'bp = Blueprint("orders", __name__, url_prefix="/api")', ...view('bp', '/orders', 'create'), ...view('bp', '/', 'root')),
      'shop/app.py': lines('from flask import Flask', 'from shop.orders import bp', 'app = Flask(__name__)', 'app.register_blueprint(bp, url_prefix="/v2")'),
    });
    expect(routes((await inspectCodebase(dir)).endpoints)).toEqual(['POST /v2/orders @ shop/orders.py:3', 'POST /v2/ @ shop/orders.py:6']);
  });

  it('keeps the construction prefix when registration names none (or None), also for routes declared in another module', async () => {
    const dir = project({
      'app/api/__init__.py': lines('from flask import Blueprint', 'bp = Blueprint("api", __name__, url_prefix="/api")', 'from app.api import routes'),
      'app/api/routes.py': lines('from flask import request', 'from app.api import bp', ...view('bp', '/tokens', 'token')),
      'app/admin.py': lines('from flask import Blueprint', 'admin = Blueprint("admin", __name__, url_prefix="/admin")', ...view('admin', '/users', 'invite')),
      'app/__init__.py': lines('from flask import Flask', 'from app.api import bp as api_bp', 'from app.admin import admin', 'app = Flask(__name__)', 'app.register_blueprint(api_bp)', 'app.register_blueprint(admin, url_prefix=None)'),
    });
    expect(routes((await inspectCodebase(dir)).endpoints).sort()).toEqual(['POST /admin/users @ app/admin.py:3', 'POST /api/tokens @ app/api/routes.py:3']);
  });

  it('nests a child blueprint under its parent: the child’s own prefix, or the one its registration gives', async () => {
    const dir = project({
      'svc/v1.py': lines('from flask import Blueprint', 'v1 = Blueprint("v1", __name__, url_prefix="/v1")', ...view('v1', '/sign', 'sign')),
      'svc/v2.py': lines('from flask import Blueprint', 'v2 = Blueprint("v2", __name__, url_prefix="/v2")', ...view('v2', '/sign', 'sign')),
      'svc/api.py': lines(
        'from flask import Blueprint',
        'from svc.v1 import v1',
        'from svc.v2 import v2',
        'api = Blueprint("api", __name__, url_prefix="/api")',
        'api.register_blueprint(v1)',
        'api.register_blueprint(v2, url_prefix="/two")',
      ),
      'svc/app.py': lines('from flask import Flask', 'from svc.api import api', 'app = Flask(__name__)', 'app.register_blueprint(api, url_prefix="/service")'),
    });
    expect(routes((await inspectCodebase(dir)).endpoints).sort()).toEqual(['POST /service/two/sign @ svc/v2.py:3', 'POST /service/v1/sign @ svc/v1.py:3']);
  });
});
