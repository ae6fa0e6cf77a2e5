// The generated trigger pages (docs/operations/<trigger>.md, `npx gulp docs`): every event the node panel lists, and
// the engagement events' cost as the fields state it.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { renderTriggerPages } from '../../scripts/docs/triggerEvents';
import { ROOT } from '../../scripts/docs/operations';

describe('the generated trigger pages', () => {
	const pages = renderTriggerPages(ROOT);

	it('has a page per trigger, as committed', () => {
		expect([...pages.keys()].sort()).toEqual(['docs/operations/list-trigger.md', 'docs/operations/subscriber-trigger.md']);
		for (const [file, content] of pages) expect(readFileSync(path.join(ROOT, file), 'utf8')).toBe(content);
	});

	it("lists the Polling Trigger's events, and says what Broadcast Opened and Link Clicked cost per poll", () => {
		const page = pages.get('docs/operations/list-trigger.md') ?? '';
		for (const event of ['New Subscriber', 'Subscriber Unsubscribed', 'Broadcast Sent', 'Broadcast Opened', 'Link Clicked']) {
			expect(page).toContain(`| ${event} |`);
		}
		expect(page).toMatch(/\| Broadcasts \| options \|[^\n]*one call per broadcast in the window[^\n]*120 per minute/);
	});
});
