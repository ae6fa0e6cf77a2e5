import { config } from '@n8n/node-cli/eslint';
import { globalIgnores } from 'eslint/config';

// n8n's own lint config for community nodes (what `n8n-node lint` runs in strict mode, and what
// n8n's scanner enforces), applied unchanged to what this package ships: credentials/, nodes/ and
// package.json. `n8n-node lint` runs `eslint .` on the whole checkout, so the folders below are
// left out: they are development tooling (the AWeber sandbox, the test and e2e suites, benchmarks,
// the n8n runtime and compatibility scripts, docs and example workflows), never published and never
// loaded by n8n, and they need Node APIs that n8n's cloud rules forbid in node code. `npm run mutation`
// (docs/testing.md) writes its copy of the checkout to .stryker-tmp/ and its reports to reports/.
export default [
	globalIgnores(['test/', 'bench/', 'scripts/', 'docs/', 'examples/', '.n8n-runtime/', '.compat/', '.stryker-tmp/', 'reports/']),
	...config,
];
