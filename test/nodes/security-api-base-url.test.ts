// A credential whose API Base URL cannot be the base of AWeber's links (nodes/shared/origin.ts): the node sends
// nothing, and the error names the credential's field, not a link (the package built the URL from that field), without
// a user name and password written into it.
import { sandboxCredentialData, useTestbed } from '../harness/aweber';
import { apiCalls, byId } from './email-nodes.helpers';

const bed = useTestbed();

const SET_IT = "Set it to AWeber's https://api.aweber.com, or to a sandbox's or proxy's whole http(s) URL without a user name, password, query or fragment. The request was not sent.";

describe("A credential's API Base URL that is no usable base", () => {
	const variants: Array<[string, (base: string) => string]> = [
		['without its scheme', (base) => base.replace(/^https?:\/\//, '')],
		['with a space after it', (base) => `${base} `],
		['with a query', (base) => `${base}/aweber?key=1`],
		['with a user name and password', (base) => base.replace('://', '://user:secret@')],
	];

	it.each(variants)('%s: refused before anything is sent, naming the API Base URL', async (_variant, written) => {
		const apiBaseUrl = written(bed.sandbox.apiBaseUrl);
		const credentialId = bed.harness.addCredential({ ...sandboxCredentialData(bed.sandbox), apiBaseUrl });
		const parameters = { operation: 'getAll', accountId: byId(bed.sandbox.seed.accountId), returnAll: true };
		const result = await bed.harness.runNode({ type: 'aWeberList', credentialId, parameters });
		expect(result.status).toBe('error');
		expect(result.error).toMatchObject({ message: `The credential's API Base URL "${apiBaseUrl.replace('user:secret@', '…@')}" cannot be used`, description: SET_IT });
		expect(JSON.stringify(result.error)).not.toContain('secret');
		expect(apiCalls(bed)).toEqual([]);
	});
});
