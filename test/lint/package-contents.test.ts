// What `npm run build` leaves in dist/ and what `npm run scan` accepts in the npm pack file list.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { pruneDist, tarballProblems } from '../../scripts/scan/package-contents';

const manifest = {
	n8n: {
		nodes: ['dist/nodes/AWeberList/AWeberList.node.js'],
		credentials: ['dist/credentials/AWeberOAuth2Api.credentials.js'],
	},
};
const shipped = [
	'package.json',
	'README.md',
	'LICENSE',
	'dist/package.json',
	'dist/icons/aweber.svg',
	'dist/nodes/AWeberList/AWeberList.node.js',
	'dist/credentials/AWeberOAuth2Api.credentials.js',
];

describe('package contents', () => {
	it('accepts what n8n loads plus README, LICENSE and package.json', () => {
		expect(tarballProblems(shipped, manifest)).toEqual([]);
	});

	it('refuses screenshots, tests and a "main" that is not in the package', () => {
		expect(
			tarballProblems([...shipped, 'dist/docs/screenshots/node-panel.png', 'test/harness/run.ts'], { ...manifest, main: 'index.js' }),
		).toEqual([
			'dist/docs/screenshots/node-panel.png: not something n8n loads',
			'test/harness/run.ts: not something n8n loads',
			'index.js: package.json "main" names a file the package lacks',
		]);
	});

	it('refuses a package that lacks a node listed in package.json', () => {
		expect(tarballProblems(shipped.filter((file) => !file.includes('AWeberList')), manifest)).toEqual([
			'dist/nodes/AWeberList/AWeberList.node.js: listed in package.json "n8n" but not in the package',
		]);
	});

	it('prunes from dist/ what n8n does not load', () => {
		const dist = mkdtempSync(path.join(tmpdir(), 'aweber-dist-'));
		try {
			for (const folder of ['nodes', 'credentials', 'icons', 'docs']) mkdirSync(path.join(dist, folder));
			writeFileSync(path.join(dist, 'package.json'), '{}');
			expect(pruneDist(dist)).toEqual(['docs']);
			expect(readdirSync(dist).sort()).toEqual(['credentials', 'icons', 'nodes', 'package.json']);
		} finally {
			rmSync(dist, { recursive: true, force: true });
		}
	});
});
