// Every Docs link a user meets in n8n goes to this package's own documentation of what they are looking at: each
// node's codex (`*.node.json` of the built package) to its page under docs/, the credential to its setup in the
// README. Never to AWeber's API reference.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { loadPackage, packageFile } from '../harness/nodeTypes';

const projectRoot = path.resolve(__dirname, '../..');
const packageJson = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { homepage: string; n8n: { nodes: string[] } };
const { homepage } = packageJson;
const repositoryFile = new RegExp(`^${homepage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/blob/main/(.+)$`);

interface Codex {
	node: string;
	resources: { primaryDocumentation: Array<{ url: string }>; credentialDocumentation?: Array<{ url: string }> };
}

/** The built nodes with their codex files, as n8n reads them from dist/. */
const builtNodes = packageJson.n8n.nodes.map((file) => {
	const codexFile = packageFile(file, '.json');
	return { file, codexFile, codex: JSON.parse(readFileSync(codexFile, 'utf8')) as Codex };
});
const { nodes, credentials } = loadPackage();

/** The heading a README link's #fragment points to, as GitHub makes fragments from headings. */
function readmeHeadingFragments(): string[] {
	const readme = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
	return [...readme.matchAll(/^#{1,6} (.+)$/gm)].map((match) =>
		match[1]
			.trim()
			.toLowerCase()
			.replace(/[^\w\- ]/g, '')
			.replace(/ /g, '-'),
	);
}

describe('Docs links', () => {
	it('finds a codex file beside every built node', () => {
		expect(builtNodes.length).toBe(nodes.size);
	});

	it.each(builtNodes.map(({ file, codex }) => [file, codex] as const))('%s: Docs open this package\'s page of the node', (_file, codex) => {
		const node = nodes.get(codex.node);
		expect(node).toBeDefined();
		const [primary] = codex.resources.primaryDocumentation;
		expect(primary.url).not.toMatch(/api\.aweber\.com/);
		const page = repositoryFile.exec(primary.url)?.[1];
		expect(page).toMatch(/^docs\/.+\.md$/);
		const text = readFileSync(path.join(projectRoot, page!), 'utf8');
		// The page is about this node: it names it in a heading or a table row.
		expect(text).toMatch(new RegExp(`(^#+ .*|\\| \\*{0,2})${node!.description.displayName}\\b`, 'm'));
		for (const credentialDoc of codex.resources.credentialDocumentation ?? []) {
			expect(credentialDoc.url).toBe(`${homepage}#credentials`);
		}
	});

	it('the credential\'s Docs link opens the README\'s credential setup', () => {
		for (const credential of credentials.values()) {
			expect(credential.documentationUrl).toBe(`${homepage}#credentials`);
		}
		expect(readmeHeadingFragments()).toContain('credentials');
		expect(existsSync(path.join(projectRoot, 'README.md'))).toBe(true);
	});
});
