// The compatibility matrix (scripts/compat/run.sh) runs this suite on several n8n versions: this checks that the
// run really loads the n8n-core it names, as the tests, the harness and the built nodes import it.
const expected = process.env.AWEBER_COMPAT_EXPECT_CORE;

describe('n8n version under test', () => {
	(expected ? it : it.skip)(`loads n8n-core ${expected ?? ''} everywhere`, () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { version } = require('n8n-core/package.json') as { version: string };
		expect(version).toBe(expected);
	});
});
