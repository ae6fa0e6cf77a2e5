// jest.mutation.config.js's dependencyExtractor. Stryker runs for a mutated file only the test files that depend on it
// (jest's findRelatedTests), and jest finds dependencies in import and require statements it can read. The harness
// loads the nodes by the paths package.json lists (test/harness/nodeTypes.ts): no statement names them, so without
// this every test that runs a node through the harness would seem unrelated to the nodes' code, and no mutant there
// would run it. Here the harness depends on every node and credential package.json lists.
const { createHash } = require('crypto');
const path = require('path');

const root = path.resolve(__dirname, '../..');
const { n8n } = require(path.join(root, 'package.json'));
const HARNESS_LOADER = path.join(root, 'test/harness/nodeTypes.ts');
const sources = [...n8n.nodes, ...n8n.credentials].map((listed) => path.join(root, listed.replace(/^dist\//, '').replace(/\.js$/, '.ts')));

module.exports = {
	extract(code, filePath, defaultExtract) {
		const dependencies = defaultExtract(code, filePath);
		if (filePath === HARNESS_LOADER) for (const source of sources) dependencies.add(source);
		return dependencies;
	},
	getCacheKey() {
		return createHash('sha1').update(sources.join('\n')).digest('hex');
	},
};
