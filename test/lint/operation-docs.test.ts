// README.md's operation tables and docs/operations/ are generated from the built nodes (`npx gulp docs`,
// scripts/docs/operations.ts); `npx gulp docs:check` (run by .ci/run) fails when they are stale. The gulp tasks run
// for real, in a copy of the checkout whose built node is then changed as a developer would change its source.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describeNodes, renderTable, ROOT, staleDocs } from '../../scripts/docs/operations';
import { repeatsInDocs } from '../../scripts/docs/repeats';

const GULP = path.join(ROOT, 'node_modules/gulp/bin/gulp.js');
const SUBSCRIBER_OPERATIONS = 'dist/nodes/AWeberSubscriber/resources/subscriber/index.js';
const CREATE_DESCRIPTION = 'Add someone who signed up, bought or changed elsewhere, with tags and custom fields';

function gulp(cwd: string, task: string) {
	return spawnSync(process.execPath, [GULP, task], { cwd, encoding: 'utf8' });
}

/** What the tests change in the copy, or `npx gulp docs` writes there: put back from the checkout before each test. */
const CHANGED_IN_COPY = ['README.md', 'docs/operations', SUBSCRIBER_OPERATIONS, 'nodes/AWeberList/resources/list/notes.md'];

/** What `npx gulp docs` reads and writes, copied; node_modules shared. */
function copyOfCheckout(): string {
	const dir = mkdtempSync(path.join(tmpdir(), 'aweber-docs-test-'));
	for (const entry of ['package.json', 'gulpfile.js', 'README.md', 'scripts/docs', 'docs/operations', 'dist', 'nodes']) {
		cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
	}
	symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
	return dir;
}

/** The copy as the checkout is again (one copy per file: copying dist/ and nodes/ per test was most of a test's set-up). */
function restoreCopy(dir: string): void {
	for (const entry of CHANGED_IN_COPY) {
		rmSync(path.join(dir, entry), { recursive: true, force: true });
		cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
	}
}

describe('operation docs generated from the nodes', () => {
	it('are current in this checkout (README tables and docs/operations/ match the built nodes)', () => {
		expect(staleDocs()).toEqual([]);
	});

	it('say no sentence twice in one table cell or paragraph (README.md, docs/operations/)', () => {
		expect(repeatsInDocs(ROOT)).toEqual([]);
	});

	it("show each operation's name, AWeber method and path from its routing, and its description", () => {
		const subscriber = describeNodes().find((node) => node.folder === 'AWeberSubscriber')!;
		const table = renderTable(subscriber);
		expect(table).toContain(`| Create | \`POST /accounts/{accountId}/lists/{listId}/subscribers\` | ${CREATE_DESCRIPTION}`);
		expect(table).toContain('| Create or Update | `POST /accounts/{accountId}/lists/{listId}/subscribers` with `update_existing=true` |');
		expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain(table);
	});

	describe('in a copy of the checkout', () => {
		let dir: string;
		beforeAll(() => {
			dir = copyOfCheckout();
		});
		beforeEach(() => restoreCopy(dir));
		afterAll(() => rmSync(dir, { recursive: true, force: true }));

		it('`gulp docs:check` fails when a node description changed and the docs were not regenerated, and passes after `gulp docs`', () => {
			expect(gulp(dir, 'docs:check').status).toBe(0);

			const built = path.join(dir, SUBSCRIBER_OPERATIONS);
			writeFileSync(built, readFileSync(built, 'utf8').replace(CREATE_DESCRIPTION, 'Add one person who just signed up'));
			const stale = gulp(dir, 'docs:check');
			expect(stale.status).not.toBe(0);
			expect(stale.stdout + stale.stderr).toContain('Stale operation docs: README.md, docs/operations/subscriber.md');

			expect(gulp(dir, 'docs').status).toBe(0);
			expect(gulp(dir, 'docs:check').status).toBe(0);
			expect(readFileSync(path.join(dir, 'README.md'), 'utf8')).toContain("| Create | `POST /accounts/{accountId}/lists/{listId}/subscribers` | Add one person who just signed up (to import an existing list, use AWeber's importer).");
		});

		it("a hand-written note beside the operation goes into the README's table and the operation's page", () => {
			const notes = path.join(dir, 'nodes/AWeberList/resources/list/notes.md');
			writeFileSync(notes, '## getTags\n\nA note kept beside the operation.\n');
			expect(gulp(dir, 'docs:check').status).not.toBe(0);
			expect(gulp(dir, 'docs').status).toBe(0);
			expect(readFileSync(path.join(dir, 'README.md'), 'utf8')).toMatch(/\| Get Tags \| `GET \/accounts\/\{accountId\}\/lists\/\{listId\}\/tags` \| [^\n]*A note kept beside the operation\. \|/);
			expect(readFileSync(path.join(dir, 'docs/operations/list.md'), 'utf8')).toContain('A note kept beside the operation.');
		});

		it("a note's sentence that the description already says, or that the note says twice, is written once", () => {
			const notes = path.join(dir, 'nodes/AWeberList/resources/list/notes.md');
			// The Get Tags description: "Get the most used tags of the list's subscribers, one item per tag."
			writeFileSync(notes, '## getTags\n\nOne item per tag. In the order AWeber sends them. In the order AWeber sends them.\n');
			expect(gulp(dir, 'docs').status).toBe(0);
			expect(gulp(dir, 'docs:check').status).toBe(0);
			const row = readFileSync(path.join(dir, 'README.md'), 'utf8').split('\n').find((line) => line.startsWith('| Get Tags |'));
			expect(row).toBe("| Get Tags | `GET /accounts/{accountId}/lists/{listId}/tags` | Get the most used tags of the list's subscribers, one item per tag. In the order AWeber sends them. |");
		});

		it('`gulp docs:check` fails on a sentence that repeats part of another in the same cell, naming it', () => {
			const notes = path.join(dir, 'nodes/AWeberList/resources/list/notes.md');
			writeFileSync(notes, "## getTags\n\nThe most used tags of the list's subscribers (as AWeber answers them).\n");
			expect(gulp(dir, 'docs').status).toBe(0);
			const check = gulp(dir, 'docs:check');
			expect(check.status).not.toBe(0);
			expect(check.stdout + check.stderr).toContain("A sentence said twice in one table cell or paragraph");
			expect(check.stdout + check.stderr).toContain(`README.md: "The most used tags of the list's subscribers (as AWeber answers them)."`);
		});
	});
});
