import { expect } from 'chai';
import { productsOf } from '../../projections/products/projector.js';
import { userByEmail } from '../../projections/users/queries.js';
import { membersOfWorkspace, workspaceBySlug } from '../../projections/workspaces/queries.js';
import { cliFails, cliOk, removeDir, tempDataDir, withStores } from './support.js';

// Each CLI run is a process start; assertions are grouped so the file stays fast.
describe('When an operator sets up makers, a workspace and a product with the CLI', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = tempDataDir();
  });
  after(() => removeDir(dir));

  it('creates them through the actions and the read models show them', async () => {
    expect(await cliOk(dir, 'create-user', '--email', 'Max@Acme.io', '--name', 'Max')).to.match(
      /^created user max@acme\.io \(u_\w+\)/,
    );
    await cliOk(dir, 'create-user', '--email', 'eva@acme.io');
    expect(
      await cliOk(
        dir,
        'create-workspace',
        '--slug',
        'acme-co',
        '--name',
        'Acme',
        '--owner',
        'max@acme.io',
      ),
    ).to.match(/^created workspace acme-co \(\w+\), admin max@acme\.io/);
    await cliOk(dir, 'add-member', '--workspace=acme-co', '--email=eva@acme.io', '--role=member');
    expect(
      await cliOk(
        dir,
        'create-product',
        '--workspace',
        'acme-co',
        '--key',
        'OPS',
        '--name',
        'Ops',
        '--visibility',
        'private',
      ),
    ).to.match(/^created private product OPS in acme-co/);

    await withStores(dir, async ({ readStore }) => {
      const max = await userByEmail(readStore, 'max@acme.io');
      const eva = await userByEmail(readStore, 'eva@acme.io');
      expect(max?.displayName).to.equal('Max');
      expect(eva?.displayName, 'defaults to the part before @').to.equal('eva');
      const workspace = await workspaceBySlug(readStore, 'acme-co');
      expect(workspace?.name).to.equal('Acme');
      const members = await membersOfWorkspace(readStore, workspace!.workspaceId);
      expect(Object.fromEntries(members.map((m) => [m.userId, m.role]))).to.deep.equal({
        [max!.userId]: 'admin',
        [eva!.userId]: 'member',
      });
      const products = await productsOf(readStore).find({ _ws: workspace!.workspaceId });
      expect(products.map((p) => [p.id, p.name, p.visibility])).to.deep.equal([
        ['OPS', 'Ops', 'private'],
      ]);
    });
  });

  it("changes a member's role with add-member and removes a member", async () => {
    expect(
      await cliOk(
        dir,
        'add-member',
        '--workspace',
        'acme-co',
        '--email',
        'eva@acme.io',
        '--role',
        'admin',
      ),
    ).to.match(/eva@acme\.io is now admin of acme-co \(was member\)/);
    // the workspace keeps an admin (max), so eva can go
    expect(
      await cliOk(dir, 'remove-member', '--workspace', 'acme-co', '--email', 'eva@acme.io'),
    ).to.match(/^removed eva@acme\.io from acme-co/);
    await withStores(dir, async ({ readStore }) => {
      const workspace = await workspaceBySlug(readStore, 'acme-co');
      const members = await membersOfWorkspace(readStore, workspace!.workspaceId);
      expect(members.map((m) => m.role)).to.deep.equal(['admin']);
    });
  });

  it('refuses bad input, duplicates and unknown names with one line on stderr and exit code 1', async () => {
    expect(await cliFails(dir, 'frobnicate')).to.match(/^error: unknown command "frobnicate"/);
    // spec addressing: slug 5 to 20 lowercase letters, digits or single hyphens
    expect(
      await cliFails(
        dir,
        'create-workspace',
        '--slug',
        'Acme',
        '--name',
        'A',
        '--owner',
        'max@acme.io',
      ),
    ).to.match(/^error: invalid --slug: slug must be 5 to 20/);
    expect(
      await cliFails(
        dir,
        'create-workspace',
        '--slug',
        'acme-co',
        '--name',
        'Again',
        '--owner',
        'max@acme.io',
      ),
    ).to.equal('error: a workspace with this slug already exists');
    expect(
      await cliFails(
        dir,
        'create-workspace',
        '--slug',
        'other-co',
        '--name',
        'O',
        '--owner',
        'nobody@acme.io',
      ),
    ).to.match(/^error: no user with e-mail nobody@acme\.io/);
  });
});
