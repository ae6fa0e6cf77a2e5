import { existsSync } from 'node:fs';
import path from 'node:path';

import type { ICredentialType, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';

const projectRoot = path.resolve(__dirname, '../..');
const packageJson = require(path.join(projectRoot, 'package.json')) as {
	name: string;
	n8n: { nodes: string[]; credentials: string[] };
};

/** Node types are named as n8n names a community package's nodes: `<package>.<node name>`. */
export const PACKAGE_PREFIX = `${packageJson.name}.`;

/**
 * Under `npm run mutation` (jest.mutation.config.js sets AWEBER_TEST_FROM_SOURCES, test/mutation/env.ts) the tests run the TypeScript
 * sources that Stryker mutates, not the build: docs/testing.md#mutation-testing.
 */
const FROM_SOURCES = process.env.AWEBER_TEST_FROM_SOURCES === '1';

/** Where a file package.json lists (`dist/nodes/X/X.node.js`) is read from: dist/, or its source under mutation testing. */
export function packageFile(listed: string, extension?: string): string {
	const file = FROM_SOURCES ? listed.replace(/^dist\//, '').replace(/\.js$/, '.ts') : listed;
	return path.join(projectRoot, extension ? file.replace(/\.[jt]s$/, extension) : file);
}

function loadExports<T>(relativeFile: string): T[] {
	const file = packageFile(relativeFile);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const moduleExports = require(file) as Record<string, new () => T>;
	return Object.values(moduleExports)
		.filter((exported) => typeof exported === 'function')
		.map((Exported) => new Exported());
}

/** The node files package.json lists (`dist/nodes/X/X.node.js`), in its order. */
export const LISTED_NODE_FILES: readonly string[] = packageJson.n8n.nodes;

/** The node types one listed file exports, each built anew as n8n builds it when it loads the package. */
export function loadNodeFile(listed: string): INodeType[] {
	return loadExports<INodeType>(listed);
}

/** The package's built nodes and credentials, exactly as listed in package.json (run `npm run build` first; see packageFile). */
export function loadPackage(): {
	nodes: Map<string, INodeType>;
	credentials: Map<string, ICredentialType>;
	unbuilt: string[];
} {
	const nodes = new Map<string, INodeType>();
	// Listed but not built: reported when a test asks for such a node, so one unfinished node does not stop the others' tests.
	const unbuilt: string[] = [];
	for (const file of packageJson.n8n.nodes) {
		if (!existsSync(packageFile(file))) {
			unbuilt.push(file);
			continue;
		}
		for (const nodeType of loadNodeFile(file)) {
			nodes.set(`${PACKAGE_PREFIX}${nodeType.description.name}`, nodeType);
		}
	}
	const credentials = new Map<string, ICredentialType>();
	for (const file of packageJson.n8n.credentials) {
		for (const credentialType of loadExports<ICredentialType>(file)) credentials.set(credentialType.name, credentialType);
	}
	return { nodes, credentials, unbuilt };
}

export class HarnessNodeTypes implements INodeTypes {
	constructor(
		private readonly nodes: Map<string, INodeType>,
		private readonly unbuilt: string[] = [],
	) {}

	register(name: string, nodeType: INodeType): void {
		this.nodes.set(name, nodeType);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(nodeType);
	}

	getByNameAndVersion(nodeType: string): INodeType {
		const found = this.nodes.get(nodeType);
		if (!found) {
			throw new Error(
				`Unknown node type ${nodeType}; known: ${[...this.nodes.keys()].join(', ')}; not built: ${this.unbuilt.join(', ') || 'none'}`,
			);
		}
		return found;
	}

	getKnownTypes() {
		return {};
	}
}
