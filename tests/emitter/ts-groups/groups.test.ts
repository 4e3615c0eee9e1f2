// Clients grouped as the API is (docs/naming.md#groups): GitHub by tag, Stripe by path, OpenCode's
// whole contract with v1 and v2 beside each other. Each call must reach its own endpoint.
import { Client as GitHub } from '../github/src/index.js';
import { Client as Stripe } from '../stripe/src/index.js';
import { Client as OpenCode } from '../opencode/src/index.js';
import { eq, run, test } from '../test/harness.js';

/** Every request's method and path; answered by `answer`. */
function recorder(answer: (path: string) => Response = () => new Response(null, { status: 204 })) {
  const seen: string[] = [];
  const handler = async (req: Request) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    return answer(path);
  };
  return { seen, handler };
}

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

test('GitHub: client.<tag>.<operationId without the tag>', async () => {
  const { seen, handler } = recorder();
  const gh = new GitHub({ baseUrl: 'http://gh.test', handler });
  await gh.issues.listForRepo({ owner: 'o', repo: 'r' });
  await gh.issues.list();
  await gh.projects.listForRepo({ owner: 'o', repo: 'r' });
  await gh.repos.listForOrg({ org: 'acme' });
  await gh.meta.root();
  eq(seen, ['GET /repos/o/r/issues', 'GET /issues', 'GET /repos/o/r/projects', 'GET /orgs/acme/repos', 'GET /'], 'requests');
});

test('Stripe: client.<first path segment>.<operationId>', async () => {
  const { seen, handler } = recorder();
  const st = new Stripe({ baseUrl: 'http://st.test', handler });
  await st.customers.getCustomers();
  await st.customers.deleteCustomersCustomer({ customer: 'cus_1' });
  await st.accountLinks.postAccountLinks();
  await st.billingPortal.postBillingPortalSessions();
  eq(seen, ['GET /v1/customers', 'DELETE /v1/customers/cus_1', 'POST /v1/account_links', 'POST /v1/billing_portal/sessions'], 'requests');
});

test('OpenCode whole contract: client.v2.session.list beside client.session.list', async () => {
  const { seen, handler } = recorder((path) =>
    path === '/api/session' ? json({ data: [], cursor: {} }) : json([]),
  );
  const oc = new OpenCode({ baseUrl: 'http://oc.test', handler });
  await oc.session.list();
  const page = await oc.v2.session.list();
  eq(page.items.length, 0, 'v2 page');
  eq(seen, ['GET /session', 'GET /api/session'], 'requests');
});

await run('groups');
