// Lints files through ESLint's Node API with the project's eslint.config.mjs, the config `n8n-node lint` runs.
// Run as a child process (jest cannot load an ES module config), it prints one JSON array of results:
//   node test/lint/eslint-api.mjs <folder to lint in> <file relative to it>...
// Inline eslint-disable comments are ignored, as n8n's scanner ignores them.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { ESLint } = createRequire(path.join(root, 'package.json'))('eslint');

const [cwd, ...files] = process.argv.slice(2);
if (!cwd || files.length === 0) {
	process.stderr.write('usage: node test/lint/eslint-api.mjs <folder> <file>...\n');
	process.exit(2);
}

// With a config file given, ESLint matches the config's `files` and `ignores` against paths relative to `cwd`,
// so a copy of the package in a temporary folder is linted exactly as the checkout would be.
const eslint = new ESLint({
	cwd,
	overrideConfigFile: path.join(root, 'eslint.config.mjs'),
	allowInlineConfig: false,
});
const results = await eslint.lintFiles(files);
process.stdout.write(
	JSON.stringify(
		results.map((result) => ({
			filePath: result.filePath,
			messages: result.messages.map(({ ruleId, severity, message }) => ({ ruleId, severity, message })),
		})),
	),
);
