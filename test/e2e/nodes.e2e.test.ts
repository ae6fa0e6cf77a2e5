// n8n 2.38.7 loads the package as a community package: every AWeber node and the credential are listed.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { CREDENTIAL_TYPE, PACKAGE_NAME, PROJECT_DIR, startN8n, type N8nInstance } from './lib';

/** Node type names from package.json's n8n.nodes (dist/nodes/AWeberX/AWeberX.node.js -> aWeberX). */
function declaredNodeNames(): string[] {
	const manifest = JSON.parse(readFileSync(path.join(PROJECT_DIR, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } };
	return manifest.n8n.nodes.map((file) => {
		const className = path.basename(file, '.node.js');
		return className.charAt(0).toLowerCase() + className.slice(1);
	});
}

describe('n8n lists the AWeber nodes and credential', () => {
	let n8n: N8nInstance;
	beforeAll(async () => {
		n8n = await startN8n();
	});
	afterAll(async () => await n8n?.stop());

	it('lists every node of the package under the package name', async () => {
		const response = await n8n.request<Array<{ name: string; displayName: string; credentials?: Array<{ name: string }> }>>(
			'GET',
			'/types/nodes.json',
		);
		expect(response.status).toBe(200);
		const aweberTypes = response.body.filter((type) => type.name.startsWith(`${PACKAGE_NAME}.`));
		const names = new Set(aweberTypes.map((type) => type.name));
		const expected = declaredNodeNames();
		expect(expected).toHaveLength(12);
		for (const name of expected) expect(names).toContain(`${PACKAGE_NAME}.${name}`);
		// Every node asks for the AWeber credential, and shows an AWeber display name.
		for (const name of expected) {
			const type = aweberTypes.find((candidate) => candidate.name === `${PACKAGE_NAME}.${name}`)!;
			expect(type.displayName).toMatch(/^AWeber/);
			expect(type.credentials?.map((credential) => credential.name)).toContain(CREDENTIAL_TYPE);
		}
	});

	it('lists the AWeber OAuth2 credential, based on n8n\'s OAuth2', async () => {
		const response = await n8n.request<Array<{ name: string; displayName: string; extends?: string[]; properties: Array<{ name: string }> }>>(
			'GET',
			'/types/credentials.json',
		);
		expect(response.status).toBe(200);
		const credential = response.body.find((type) => type.name === CREDENTIAL_TYPE);
		expect(credential).toMatchObject({ displayName: 'AWeber OAuth2 API', extends: ['oAuth2Api'] });
		expect(credential!.properties.map((property) => property.name)).toEqual(
			expect.arrayContaining(['grantType', 'clientId', 'clientSecret', 'scope', 'webhookVerificationSecret', 'apiBaseUrl', 'authBaseUrl']),
		);
	});

	it('describes the credential in the public API (what API clients fill in)', async () => {
		const schema = await n8n.api<{ properties: Record<string, unknown> }>('GET', `/credentials/schema/${CREDENTIAL_TYPE}`);
		expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['clientId', 'apiBaseUrl', 'authBaseUrl']));
	});
});
