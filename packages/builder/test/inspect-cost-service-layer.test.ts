/**
 * Duplicate cost of Python views that only validate and call a service (HackSoftware's Django
 * styleguide): a service named noun first, verb last (`user_create(...)`) is a write, and so is a
 * function or service method of the repository whose own body writes (`service.start(...)` whose
 * `start` saves a row). Names that ask or read (`user_can_delete`, `get_mailbox`) stay no write.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assessCosts } from '../src/inspect/cost.js';
import type { EndpointFinding } from '../src/inspect/types.js';

const root = mkdtempSync(join(tmpdir(), 'inspect-cost-services-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const write = (path: string, lines: string[]) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), lines.join('\n'));
};

write('app/users/services.py', [
  'from django.db import transaction',
  '',
  '@transaction.atomic',
  'def user_create(',
  '    *, email: str, password: str',
  ') -> BaseUser:',
  '    return BaseUser.objects.create_user(email=email, password=password)',
  '',
  'def user_deactivate(*, user):',
  '    user.is_active = False',
  '    user.save(update_fields=["is_active"])',
  '',
  'def user_welcome(*, user):',
  '    send_mail("Welcome", "Hello", None, [user.email])',
]);
write('app/users/selectors.py', [
  'def user_get(user_id):',
  '    # a selector reads; user.save() in a comment is no call',
  '    return BaseUser.objects.filter(id=user_id).first()',
]);
write('app/files/services.py', [
  'class FileDirectUploadService:',
  '    def __init__(self, user):',
  '        self.user = user',
  '',
  '    def start(self, *, file_name: str) -> dict:',
  '        file = File(original_file_name=file_name, uploaded_by=self.user)',
  '        file.full_clean()',
  '        file.save()',
  '        return {"id": file.id}',
  '',
  '    def presign(self, *, file_name: str) -> dict:',
  '        return {"url": file_name}',
]);
write('app/mail.py', [
  'import ssl',
  'def get_mailbox(server):',
  '    context = ssl.create_default_context()',
  '    return MailBox(server, ssl_context=context)',
]);
// Views: one per endpoint, each `def post` at the line the endpoint below names.
write('app/views.py', [
  'from app.users.services import user_create',
  'from app.users import services',
  'from app.users.selectors import user_get',
  'from app.files.services import (',
  '    FileDirectUploadService,  # the styleguide service class',
  ')',
  'from app.mail import get_mailbox',
  '',
  'class UserCreateApi(APIView):',
  '    def post(self, request):',
  '        user = user_create(**serializer.validated_data)',
  '        return Response({"id": user.id})',
  '',
  'class FileStartApi(APIView):',
  '    def post(self, request):',
  '        service = FileDirectUploadService(request.user)',
  '        return Response(service.start(**serializer.validated_data))',
  '',
  'class UserDeactivateApi(APIView):',
  '    def post(self, request, user_id):',
  '        services.user_deactivate(user=user_get(user_id))',
  '        return Response(status=204)',
  '',
  'class UserWelcomeApi(APIView):',
  '    def post(self, request, user_id):',
  '        services.user_welcome(user=user_get(user_id))',
  '        return Response(status=202)',
  '',
  'class ReadsApi(APIView):',
  '    def post(self, request, user_id):',
  '        user = user_get(user_id)',
  '        allowed = user_can_delete(user) and qs_select_for_update(user)',
  '        get_mailbox(request.data["server"])',
  '        return Response(FileDirectUploadService(user).presign(file_name="x"))',
]);
// A `src/` layout: the import is rooted at src/, not at the repository root.
write('src/shop/services.py', ['def order_place(*, cart):', '    Order.objects.create(cart=cart)']);
write('src/shop/views.py', ['from shop.services import order_place', '', '@api_view(["POST"])', 'def place(request):', '    order_place(cart=request.data["cart"])', '    return Response(status=201)']);

const view = (file: string, start: number, end: number, route: string): EndpointFinding => ({
  method: 'POST', route, framework: 'django', location: `${file}:${start}`, handler: 'post', bodyFields: [], webhook: false, span: { start, end },
});

describe('duplicate cost: service-layer writes', () => {
  const create = view('app/views.py', 10, 12, '/api/users/create');
  const start = view('app/views.py', 15, 17, '/api/files/upload/direct/start');
  const deactivate = view('app/views.py', 20, 22, '/api/users/{user_id}/deactivate');
  const welcome = view('app/views.py', 25, 27, '/api/users/{user_id}/welcome');
  const reads = view('app/views.py', 30, 34, '/api/users/{user_id}/mailbox');
  const place = view('src/shop/views.py', 4, 6, '/api/orders');
  const costs = assessCosts([create, start, deactivate, welcome, reads, place], { root, paymentCalls: [] });

  it('a service named noun first, verb last is a write', () => {
    expect(costs.get(create)).toMatchObject({ level: 'write', evidence: ['writes: `user_create(` (app/views.py:11)'] });
  });

  it('a method of the service class the view builds, whose body saves, is a write', () => {
    expect(costs.get(start)).toMatchObject({ level: 'write', evidence: ['writes through FileDirectUploadService.start(): `.save(` (app/files/services.py:8)'] });
  });

  it('a function of an imported services module, and a `src/` layout, are followed', () => {
    expect(costs.get(deactivate)).toMatchObject({ level: 'write', evidence: ['writes through services.user_deactivate(): `.save(` (app/users/services.py:11)'] });
    expect(costs.get(place)).toMatchObject({ level: 'write', evidence: ['writes through order_place(): `.create(` (src/shop/services.py:2)'] });
  });

  it('a service that sends mail ranks external', () => {
    expect(costs.get(welcome)).toMatchObject({ level: 'external', evidence: ['sends or calls out through services.user_welcome(): `send_mail(` (app/users/services.py:14)'] });
  });

  it('selectors, checks, getters and a lock are no write', () => {
    expect(costs.get(reads)).toMatchObject({ level: 'none' });
  });
});
