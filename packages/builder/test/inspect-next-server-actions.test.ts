/**
 * Next.js server actions as entry points: a `'use server'` module's exported async functions
 * (declared, `export const x = async …`, wrapped with a schema), an action declared inline in a
 * server component, their inputs (FormData fields, bound ids, a typed object argument, positional
 * arguments), cost, the principal call, and no basePath (an action has no path of its own).
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { auditInspection } from '../src/inspect/audit.js';
import { inspectCodebase } from '../src/inspect/index.js';
import { proposeFromInspection } from '../src/questions/propose.js';

const project = tempProjects('next-actions', { 'package.json': '{ "name": "n", "dependencies": { "next": "15.0.0", "stripe": "^14.0.0", "@prisma/client": "^5.0.0", "zod": "^3.0.0" } }' });

describe('Next.js server actions', () => {
  it('reports every exported async function of a use-server module, with its input, cost and principal', async () => {
    const dir = project({
      'next.config.js': "module.exports = { basePath: '/shop' };\n",
      'app/actions/billing.ts': [
        "'use server';",
        "import Stripe from 'stripe';",
        "import { auth } from '@/auth';",
        'const stripe = new Stripe(process.env.STRIPE_KEY!);',
        'export async function startCheckout(formData: FormData) {',
        '  const session = await auth();',
        "  const plan = formData.get('plan') as string;",
        "  return stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: plan, quantity: 1 }], client_reference_id: session?.user?.id });",
        '}',
        'export async function renameTeam(id: string, prevState: unknown, formData: FormData) {',
        "  await prisma.team.update({ where: { id }, data: { name: String(formData.get('name')) } });",
        '}',
        'export const archiveNote = async (input: { noteId: string; reason: string }) => {',
        '  await prisma.note.update({ where: { id: input.noteId }, data: { archived: true } });',
        '};',
        'function helper() { return 1; }',
        'export function notAnAction() { return helper(); }',
      ].join('\n'),
      'app/actions/wrapped.ts': [
        '"use server"',
        "import { z } from 'zod';",
        "const inviteSchema = z.object({ email: z.string(), role: z.enum(['member', 'owner']) });",
        'export const invite = validatedAction(inviteSchema, async (data, formData) => {',
        '  await prisma.invitation.create({ data });',
        '});',
      ].join('\n'),
      'app/page.tsx': [
        'export default function Page() {',
        '  async function deleteDraft(formData: FormData) {',
        "    'use server';",
        "    await prisma.draft.delete({ where: { id: String(formData.get('draftId')) } });",
        '  }',
        '  return <form action={deleteDraft}><button>Delete</button></form>;',
        '}',
      ].join('\n'),
    });
    const inspection = await inspectCodebase(dir);
    const byName = Object.fromEntries(inspection.endpoints.map((e) => [e.serverAction?.name ?? `${e.method} ${e.route}`, e]));
    expect(Object.keys(byName).sort()).toEqual(['archiveNote', 'deleteDraft', 'invite', 'renameTeam', 'startCheckout']);
    expect(byName.startCheckout).toMatchObject({
      method: 'POST', route: '/*', framework: 'nextjs', bodyFields: ['plan'], cost: { level: 'money' },
      serverAction: { name: 'startCheckout', input: 'form', principal: 'auth()' }, location: 'app/actions/billing.ts:5',
    });
    expect(byName.renameTeam).toMatchObject({ bodyFields: ['id', 'name'], cost: { level: 'write' }, serverAction: { input: 'form' } });
    expect(byName.archiveNote).toMatchObject({ bodyFields: ['noteId', 'reason'], serverAction: { input: 'arguments' } });
    expect(byName.invite).toMatchObject({ bodyFields: ['email', 'role'], serverAction: { input: 'form' } });
    expect(byName.deleteDraft).toMatchObject({ bodyFields: ['draftId'], location: 'app/page.tsx:2', cost: { level: 'write' } });

    // Each is an action named by its function, keyed from the client, never mounted on a route.
    const proposed = proposeFromInspection(inspection).actions.map((p) => p.action);
    expect(proposed.find((a) => a.name === 'startCheckout')).toMatchObject({ serverAction: 'startCheckout', principalCall: 'auth()', route: '/*', provider: 'stripe', keySource: 'client' });
    // The audit names the action and tells to wrap it, not to mount header middleware.
    const violation = auditInspection(inspection).violations.find((v) => v.location === 'app/actions/billing.ts:5');
    expect(violation?.subject).toBe('POST /* server action startCheckout');
    expect(violation?.fix).toContain("wrapping the action with the runtime's makeIdempotent (/functions) keyed by an idempotencyKey form field");
  });

  it('reports nothing for a module without the directive or with it below other code', async () => {
    const dir = project({
      'lib/data.ts': "export async function save(formData: FormData) { await prisma.a.create({ data: {} }); }\n",
      'lib/late.ts': "import x from 'y';\n'use server';\nexport async function save(formData: FormData) { await prisma.a.create({ data: {} }); }\n",
    });
    expect((await inspectCodebase(dir)).endpoints.filter((e) => e.serverAction)).toEqual([]);
  });

  it('rates sign-in and sign-out actions auth by the call they make, and Supabase account calls external', async () => {
    const dir = project({
      'app/lib/actions.ts': [
        "'use server';",
        "import { signIn } from '@/auth';",
        "import { createClient } from '@/utils/supabase/server';",
        'export async function authenticate(prevState: string | undefined, formData: FormData) {',
        "  await signIn('credentials', formData);",
        '}',
        'export async function register(formData: FormData) {',
        '  const supabase = createClient();',
        "  await supabase.auth.signUp({ email: String(formData.get('email')), password: String(formData.get('password')) });",
        '}',
        'export async function requestReset(formData: FormData) {',
        "  await createClient().auth.resetPasswordForEmail(String(formData.get('email')));",
        '}',
        'export async function leave() {',
        '  await createClient().auth.signOut();',
        '}',
      ].join('\n'),
    });
    const levels = Object.fromEntries((await inspectCodebase(dir)).endpoints.map((e) => [e.serverAction?.name, e.cost?.level]));
    expect(levels).toEqual({ authenticate: 'auth', register: 'external', requestReset: 'external', leave: 'auth' });
  });

  it('keeps a route file’s POST a route under a stray use-server directive (polar’s ai/chat/route.ts), its other exports actions', async () => {
    const dir = project({
      'app/chat/route.ts': "'use server'\nexport async function POST(req: Request) { await prisma.chat.create({ data: await req.json() }); return new Response(null); }\nexport async function rename(formData: FormData) { await prisma.chat.update({ where: { id: 1 }, data: { name: String(formData.get('name')) } }); }\n",
    });
    const found = (await inspectCodebase(dir)).endpoints.map((e) => `${e.method} ${e.route} ${e.serverAction?.name ?? ''}`.trim()).sort();
    expect(found).toEqual(['POST /* rename', 'POST /chat']);
  });
});
