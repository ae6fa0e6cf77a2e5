// Deterministic seed data: one account ("Sandbox Outfitters") with lists in every shape the nodes meet,
// subscribers in every status, broadcasts in every state, follow-ups, opens, clicks and tracked events.
// Only the scheduled broadcast's time depends on the clock (it must lie in the future).
import { broadcastDefaults } from './broadcast-defaults';
import { SandboxState } from './state';
import type {
	BroadcastRecord,
	CampaignType,
	ListRecord,
	SubscriberRecord,
	SubscriberStatus,
} from './state';
import { emptyGeo } from './state';
import type { SeedInfo } from './types';

export const DEFAULT_SEED_SIZE = 250;

export const SEED_ACCOUNT = {
	id: 1234567,
	uuid: '3f1c9a0e-0000-4000-8000-000000000001',
	company: 'Sandbox Outfitters',
} as const;

/** Seeded history starts here (fixed, so ids and timestamps are the same on every run). */
const SEED_BASE = Date.UTC(2025, 0, 6, 9, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const LIST_IDS = { newsletter: 2001, customers: 2002, bulk: 2003, empty: 2004 };
const FIELD_IDS = { company: 401, plan: 402, birthday: 403, customersCompany: 404, customersPlan: 405 };
const BROADCAST_IDS = { welcome: 5000, sent: 5001, scheduled: 5002, draft: 5003, uiDraft: 5004 };
const FOLLOW_UP_IDS = { welcome: 6001, tips: 6002 };

export interface SeedOptions {
	seedSize: number;
	/** Sandbox time when the seed is loaded. */
	now: number;
}

export interface SeedResult {
	state: SandboxState;
	info: SeedInfo;
}

/** A fixed, valid-looking UUID per kind and number. */
function seededUuid(kind: number, n: number): string {
	const kindHex = kind.toString(16).padStart(8, '0');
	return `${kindHex}-5eed-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

const PEOPLE = [
	'Ada Lovelace',
	'Grace Hopper',
	'Alan Turing',
	'Katherine Johnson',
	'Edsger Dijkstra',
	'Barbara Liskov',
	'Donald Knuth',
	'Margaret Hamilton',
	'Linus Torvalds',
	'Frances Allen',
	'Dennis Ritchie',
	'Radia Perlman',
	'Ken Thompson',
	'Hedy Lamarr',
	'John McCarthy',
	'Adele Goldberg',
	'Niklaus Wirth',
	'Shafi Goldwasser',
	'Tim Berners-Lee',
	'Annie Easley',
];
const COMPANIES = ['Analytical Engines Ltd', 'Cobol Works', 'Enigma Outfitters', 'Orbit Labs', 'Shortest Path Co'];
const PLANS = ['free', 'pro', 'team'];
const CITIES: Array<Partial<ReturnType<typeof emptyGeo>>> = [
	{ city: 'Philadelphia', country: 'United States', region: 'PA', postal_code: '19103', latitude: 39.95, longitude: -75.17, area_code: 215, dma_code: '504' },
	{ city: 'London', country: 'United Kingdom', region: 'ENG', postal_code: 'EC1A', latitude: 51.51, longitude: -0.09 },
	{ city: 'Berlin', country: 'Germany', region: 'BE', postal_code: '10115', latitude: 52.53, longitude: 13.38 },
];

function emailOf(name: string): string {
	return `${name.toLowerCase().replace(/[^a-z ]/g, '').replace(/ /g, '.')}@example.com`;
}

function seededSubscriber(
	state: SandboxState,
	listId: number,
	fields: Partial<SubscriberRecord> & { email: string; subscribedAt: number; status: SubscriberStatus },
): SubscriberRecord {
	const id = state.nextId('subscriber');
	const subscriber: SubscriberRecord = {
		...state.newSubscriber(listId, fields.email, fields.subscribedAt, id),
		...fields,
		uuid: seededUuid(0x5b5c, id),
	};
	if (subscriber.status !== 'unconfirmed') {
		subscriber.isVerified = true;
		subscriber.verifiedAt = subscriber.subscribedAt + 10 * MINUTE;
	}
	state.insertSubscriber(subscriber);
	return subscriber;
}

function seedLists(state: SandboxState): void {
	const list = (id: number, name: string, confirmedOptIn: boolean): ListRecord => ({
		id,
		uuid: seededUuid(0x1157, id),
		name,
		uniqueListId: `awlist${id}`,
		confirmedOptIn,
	});
	for (const record of [
		list(LIST_IDS.newsletter, 'Newsletter', false),
		list(LIST_IDS.customers, 'Customers', false),
		list(LIST_IDS.bulk, 'Bulk', false),
		// The empty list is confirmed opt-in: subscribers added through the API wait unconfirmed.
		list(LIST_IDS.empty, 'Empty', true),
	]) {
		state.lists.set(record.id, record);
		state.subscribersOf(record.id);
	}
	const field = (id: number, listId: number, name: string, isSubscriberUpdateable: boolean) =>
		state.customFields.set(id, { id, listId, name, isSubscriberUpdateable });
	field(FIELD_IDS.company, LIST_IDS.newsletter, 'Company', false);
	field(FIELD_IDS.plan, LIST_IDS.newsletter, 'Plan', true);
	field(FIELD_IDS.birthday, LIST_IDS.newsletter, 'Birthday', true);
	field(FIELD_IDS.customersCompany, LIST_IDS.customers, 'Company', false);
	field(FIELD_IDS.customersPlan, LIST_IDS.customers, 'Plan', true);
	state.setNextId('customField', 406);
}

/** 20 subscribers on Newsletter: every fifth unconfirmed, every fifth unsubscribed, the rest subscribed. */
function seedNewsletter(state: SandboxState): SubscriberRecord[] {
	return PEOPLE.map((name, index) => {
		const status: SubscriberStatus = index % 5 === 3 ? 'unconfirmed' : index % 5 === 4 ? 'unsubscribed' : 'subscribed';
		const subscribedAt = SEED_BASE + index * DAY + index * 7 * MINUTE;
		const method = (['webform', 'api', 'import', 'email'] as const)[index % 4];
		const tags = [
			...(index % 3 === 0 ? ['vip'] : []),
			...(index % 4 === 1 ? ['trial'] : []),
			...(index % 2 === 0 ? ['webinar'] : []),
			...(index < 3 ? ['customer'] : []),
		];
		const customFields = new Map<number, string | null>([
			[FIELD_IDS.company, COMPANIES[index % COMPANIES.length]],
			[FIELD_IDS.plan, PLANS[index % PLANS.length]],
			[FIELD_IDS.birthday, index % 4 === 0 ? null : `19${60 + index}-0${(index % 9) + 1}-1${index % 10}`],
		]);
		return seededSubscriber(state, LIST_IDS.newsletter, {
			email: emailOf(name),
			name,
			status,
			subscribedAt,
			subscriptionMethod: method,
			subscriptionUrl: method === 'webform' ? 'https://sandbox-outfitters.example/signup' : null,
			unsubscribedAt: status === 'unsubscribed' ? subscribedAt + 30 * DAY : null,
			unsubscribeMethod: status === 'unsubscribed' ? 'unsubscribe link' : null,
			adTracking: index % 2 === 0 ? 'spring-promo' : null,
			miscNotes: index === 0 ? 'First subscriber' : null,
			customFields,
			tags,
			ipAddress: `203.0.113.${index + 10}`,
			geo: { ...emptyGeo(), ...CITIES[index % CITIES.length] },
		});
	});
}

/** Customers shares its first address with Newsletter (a move there is refused: already on the list). */
function seedCustomers(state: SandboxState): void {
	const names = [PEOPLE[0], 'Sophie Wilson', 'Jean Sammet', 'Bjarne Stroustrup', 'Mary Keller'];
	names.forEach((name, index) => {
		seededSubscriber(state, LIST_IDS.customers, {
			email: emailOf(name),
			name,
			status: index === 4 ? 'unsubscribed' : 'subscribed',
			subscribedAt: SEED_BASE + (index + 2) * DAY,
			subscriptionMethod: 'import',
			unsubscribedAt: index === 4 ? SEED_BASE + 40 * DAY : null,
			unsubscribeMethod: index === 4 ? 'customer cp' : null,
			customFields: new Map<number, string | null>([
				[FIELD_IDS.customersCompany, COMPANIES[index % COMPANIES.length]],
				[FIELD_IDS.customersPlan, PLANS[(index + 1) % PLANS.length]],
			]),
			tags: ['customer'],
		});
	});
}

/** The big list: `size` subscribed addresses, one minute apart, in the order they were added. */
function seedBulk(state: SandboxState, size: number): void {
	const base = SEED_BASE + 60 * DAY;
	for (let index = 0; index < size; index++) {
		const number = String(index + 1).padStart(5, '0');
		seededSubscriber(state, LIST_IDS.bulk, {
			email: `bulk.${number}@example.com`,
			name: `Bulk Subscriber ${number}`,
			status: 'subscribed',
			subscribedAt: base + index * MINUTE,
			subscriptionMethod: 'import',
			tags: index % 10 === 0 ? ['bulk', 'sample'] : ['bulk'],
		});
	}
}

/** Pages of the spring lookbook the sent broadcast links to: its 2.0-beta page-view report spans two pages. */
export const LOOKBOOK_PAGES = 130;

const CLICK_URLS = [
	'https://sandbox-outfitters.example/spring',
	'https://sandbox-outfitters.example/jackets',
	'https://sandbox-outfitters.example/sale',
];

/** One message per recipient, with opens, clicks and tracked events spread deterministically over them. */
function sendCampaign(
	state: SandboxState,
	campaignType: CampaignType,
	campaignId: number,
	recipients: SubscriberRecord[],
	sentAt: (recipient: SubscriberRecord) => number,
	activity: { opens: boolean; clicks: boolean; trackedEvents: boolean },
): void {
	recipients.forEach((recipient, index) => {
		const eventTime = sentAt(recipient);
		const message = {
			id: state.nextId('message'),
			campaignType,
			campaignId,
			listId: recipient.listId,
			subscriberId: recipient.id,
			eventTime,
		};
		state.messages.set(message.id, message);
		if (activity.opens && index % 3 !== 2) {
			state.opens.push({ id: state.nextId('open'), messageId: message.id, subscriberId: recipient.id, eventTime: eventTime + (index + 1) * 17 * MINUTE });
			if (index % 4 === 0) {
				state.opens.push({ id: state.nextId('open'), messageId: message.id, subscriberId: recipient.id, eventTime: eventTime + DAY + index * MINUTE });
			}
		}
		if (activity.clicks && index % 2 === 0) {
			for (let click = 0; click <= index % 3; click++) {
				state.clicks.push({
					id: state.nextId('click'),
					messageId: message.id,
					subscriberId: recipient.id,
					eventTime: eventTime + (index + 1) * 23 * MINUTE + click * 5 * MINUTE,
					url: CLICK_URLS[(index + click) % CLICK_URLS.length],
				});
			}
		}
		if (activity.trackedEvents && index % 2 === 0 && index < 6) {
			const sale = index !== 2;
			state.trackedEvents.push({
				id: state.nextId('trackedEvent'),
				messageId: message.id,
				subscriberId: recipient.id,
				eventTime: eventTime + 2 * HOUR + index * MINUTE,
				type: sale ? 'sale' : 'webhit',
				url: sale ? 'https://sandbox-outfitters.example/checkout/thanks' : CLICK_URLS[1],
				vendor: sale ? 'Sandbox Outfitters Shop' : null,
				productName: sale ? 'Trail Jacket' : null,
				eventNote: sale ? `Order ${1000 + index}` : null,
				currency: sale ? 'USD' : null,
				value: sale ? 49 + index * 10 : null,
			});
		}
		if (activity.trackedEvents && index === 0) {
			// The first buyer also visited the product page first: one message with two tracked events, so that
			// collection spans pages too in the contract suite (test/contract/operations.test.ts).
			state.trackedEvents.push({
				id: state.nextId('trackedEvent'),
				messageId: message.id,
				subscriberId: recipient.id,
				eventTime: eventTime + HOUR,
				type: 'webhit',
				url: CLICK_URLS[0],
				vendor: null,
				productName: null,
				eventNote: null,
				currency: null,
				value: null,
			});
		}
	});
}

function broadcast(
	id: number,
	fields: Partial<BroadcastRecord> & { status: BroadcastRecord['status']; subject: string; createdAt: number },
): BroadcastRecord {
	return {
		id,
		uuid: seededUuid(0xb40a, id),
		listId: LIST_IDS.newsletter,
		...broadcastDefaults(),
		bodyHtml: `<h1>${fields.subject}</h1><p>News from Sandbox Outfitters.</p>`,
		bodyText: `${fields.subject}\n\nNews from Sandbox Outfitters.`,
		hasCustomizedBodyText: true,
		spamAssassinScore: 0.4,
		...fields,
	};
}

function seedEmail(state: SandboxState, newsletter: SubscriberRecord[], now: number): void {
	const subscribed = newsletter.filter((subscriber) => subscriber.status === 'subscribed');
	const welcomeSentAt = SEED_BASE + 20 * DAY;
	const springSentAt = SEED_BASE + 40 * DAY;
	const recipientsAt = (time: number) => subscribed.filter((subscriber) => subscriber.subscribedAt < time);
	// The scheduled broadcast goes out a week from now, on the hour.
	const scheduledFor = Math.ceil((now + 7 * DAY) / HOUR) * HOUR;

	for (const record of [
		broadcast(BROADCAST_IDS.welcome, {
			status: 'sent',
			subject: 'Welcome to the Sandbox Outfitters newsletter',
			createdAt: welcomeSentAt - 2 * DAY,
			scheduledFor: welcomeSentAt,
			sentAt: welcomeSentAt,
			createdByApi: false,
		}),
		broadcast(BROADCAST_IDS.sent, {
			status: 'sent',
			subject: 'Spring collection is here',
			createdAt: springSentAt - DAY,
			scheduledFor: springSentAt,
			sentAt: springSentAt,
			segmentId: 601,
			facebookIntegrationId: 301,
		}),
		broadcast(BROADCAST_IDS.scheduled, {
			status: 'scheduled',
			subject: 'Summer preview',
			createdAt: now - DAY,
			scheduledFor,
			includeListIds: [LIST_IDS.customers],
		}),
		broadcast(BROADCAST_IDS.draft, {
			status: 'draft',
			subject: 'Autumn draft',
			createdAt: SEED_BASE + 50 * DAY,
			excludeListIds: [LIST_IDS.customers],
		}),
		// Drafts made in AWeber's web editor: readable by id, never listed, updated or deleted by the API.
		broadcast(BROADCAST_IDS.uiDraft, {
			status: 'draft',
			subject: 'Draft from the web editor',
			createdAt: SEED_BASE + 51 * DAY,
			createdByApi: false,
		}),
	]) {
		state.broadcasts.set(record.id, record);
	}
	state.setNextId('broadcast', 5005);
	state.setNextId('message', 70001);
	state.setNextId('open', 80001);
	state.setNextId('click', 90001);
	state.setNextId('trackedEvent', 95001);

	sendCampaign(state, 'b', BROADCAST_IDS.welcome, recipientsAt(welcomeSentAt).slice(0, 8), () => welcomeSentAt, {
		opens: true,
		clicks: true,
		trackedEvents: false,
	});
	sendCampaign(state, 'b', BROADCAST_IDS.sent, recipientsAt(springSentAt), () => springSentAt, {
		opens: true,
		clicks: true,
		trackedEvents: true,
	});

	// More page views than one page of the 2.0-beta link report holds (100), so Return All has pages to follow.
	state.archivePageViews.set(
		BROADCAST_IDS.sent,
		Array.from({ length: LOOKBOOK_PAGES }, (_unused, index) => {
			const unique = 1 + ((index * 7) % 23);
			return { url: `https://sandbox-outfitters.example/lookbook/${index + 1}`, unique, total: unique + (index % 5) };
		}),
	);

	state.followUps.set(FOLLOW_UP_IDS.welcome, {
		id: FOLLOW_UP_IDS.welcome,
		listId: LIST_IDS.newsletter,
		subject: 'Welcome aboard',
		messageNumber: 1,
		// The reference's Campaign.message_interval minimum is 1 (days after the previous message).
		messageInterval: 1,
		contentType: 'Text/HTML',
		clickTrackingEnabled: true,
		spamAssassinScore: 0.2,
		createdAt: SEED_BASE - 10 * DAY,
	});
	state.followUps.set(FOLLOW_UP_IDS.tips, {
		id: FOLLOW_UP_IDS.tips,
		listId: LIST_IDS.newsletter,
		subject: 'Getting the most out of your gear',
		messageNumber: 2,
		messageInterval: 3,
		contentType: 'HTML',
		clickTrackingEnabled: true,
		spamAssassinScore: 0.3,
		createdAt: SEED_BASE - 10 * DAY,
	});
	sendCampaign(state, 'f', FOLLOW_UP_IDS.welcome, subscribed, (s) => s.subscribedAt + HOUR, {
		opens: true,
		clicks: false,
		trackedEvents: false,
	});
	sendCampaign(state, 'f', FOLLOW_UP_IDS.tips, subscribed, (s) => s.subscribedAt + 3 * DAY + HOUR, {
		opens: true,
		clicks: true,
		trackedEvents: false,
	});
	for (const subscriber of subscribed) {
		subscriber.lastFollowupMessageNumberSent = 2;
		subscriber.lastFollowupSentAt = subscriber.subscribedAt + 3 * DAY + HOUR;
	}
}

function seedForms(state: SandboxState, now: number): void {
	const segments: Array<[number, number, string, boolean]> = [
		[601, LIST_IDS.newsletter, 'Active Subscribers', false],
		[602, LIST_IDS.newsletter, 'Split test: subject A/B', true],
		[603, LIST_IDS.newsletter, 'VIP readers', false],
		[604, LIST_IDS.customers, 'Active Subscribers', false],
	];
	for (const [id, listId, name, isSplitTest] of segments) state.segments.set(id, { id, listId, name, isSplitTest });

	const forms: Array<[number, number, string, 'inline' | 'popup' | 'lightbox', boolean, number, number]> = [
		[801, LIST_IDS.newsletter, 'Sidebar signup', 'inline', true, 1200, 40],
		[802, LIST_IDS.newsletter, 'Exit popup', 'popup', true, 800, 52],
		[803, LIST_IDS.newsletter, 'Blog lightbox', 'lightbox', false, 150, 3],
		[804, LIST_IDS.customers, 'Checkout opt-in', 'inline', true, 300, 61],
	];
	for (const [id, listId, name, type, isActive, displays, submissions] of forms) {
		state.webForms.set(id, {
			id,
			listId,
			name,
			type,
			isActive,
			totalDisplays: displays,
			totalUniqueDisplays: Math.round(displays * 0.8),
			totalSubmissions: submissions,
			tags: type === 'popup' ? ['popup'] : [],
		});
	}
	state.splitTests.set(901, {
		id: 901,
		listId: LIST_IDS.newsletter,
		name: 'Sidebar vs popup',
		isActive: true,
		components: [
			{ id: '901-801', webFormId: 801, weight: 50 },
			{ id: '901-802', webFormId: 802, weight: 50 },
		],
	});
	// An ended trial: the list has two split tests, so its split test collections span pages in the contract suite.
	state.splitTests.set(902, {
		id: 902,
		listId: LIST_IDS.newsletter,
		name: 'Sidebar vs lightbox (ended)',
		isActive: false,
		components: [
			{ id: '902-801', webFormId: 801, weight: 70 },
			{ id: '902-803', webFormId: 803, weight: 30 },
		],
	});

	const published = SEED_BASE + 15 * DAY;
	state.landingPages.set(seededUuid(0x1a9d, 1), {
		id: seededUuid(0x1a9d, 1),
		listId: LIST_IDS.newsletter,
		name: 'Spring launch',
		status: 'published',
		contentHtml: '<h1>Spring launch</h1>',
		publishedHtml: '<html><body><h1>Spring launch</h1></body></html>',
		publishedUrl: 'https://sandbox-outfitters.example/lp/spring-launch',
		createdAt: published - 2 * DAY,
		modifiedAt: published,
		publishedAt: published,
	});
	state.landingPages.set(seededUuid(0x1a9d, 2), {
		id: seededUuid(0x1a9d, 2),
		listId: LIST_IDS.newsletter,
		name: 'Webinar sign-up (draft)',
		status: 'unpublished',
		contentHtml: '<h1>Webinar</h1>',
		publishedHtml: null,
		publishedUrl: null,
		createdAt: Math.min(now, SEED_BASE + 55 * DAY),
		modifiedAt: Math.min(now, SEED_BASE + 56 * DAY),
		publishedAt: null,
	});
}

export function seedState(options: SeedOptions): SeedResult {
	const state = new SandboxState();
	state.account = { ...SEED_ACCOUNT };
	state.setNextId('subscriber', 100001);
	seedLists(state);
	const newsletter = seedNewsletter(state);
	seedCustomers(state);
	seedBulk(state, Math.max(0, Math.floor(options.seedSize)));
	for (const [id, serviceName, login] of [
		[301, 'facebook', 'Sandbox Outfitters'],
		[302, 'twitter', '@sandboxoutfit'],
		[303, 'paypal', 'payments@sandbox-outfitters.example'],
	] as const) {
		state.integrations.set(id, { id, serviceName, login });
	}
	seedEmail(state, newsletter, options.now);
	seedForms(state, options.now);

	const byStatus = (status: SubscriberStatus) => (newsletter.find((s) => s.status === status) as SubscriberRecord).id;
	const info: SeedInfo = {
		accountId: SEED_ACCOUNT.id,
		accountUuid: SEED_ACCOUNT.uuid,
		company: SEED_ACCOUNT.company,
		lists: { ...LIST_IDS },
		integrations: { facebook: 301, twitter: 302, paypal: 303 },
		broadcasts: { draft: BROADCAST_IDS.draft, scheduled: BROADCAST_IDS.scheduled, sent: BROADCAST_IDS.sent },
		campaigns: { broadcast: `b${BROADCAST_IDS.sent}`, followUp: `f${FOLLOW_UP_IDS.welcome}` },
		messages: {
			broadcast: firstMessageId(state, 'b', BROADCAST_IDS.sent),
			followUp: firstMessageId(state, 'f', FOLLOW_UP_IDS.welcome),
		},
		segments: { active: 601, splitTest: 602 },
		webForms: { newsletter: 801 },
		splitTests: { newsletter: 901 },
		splitTestComponents: { first: '901-801', second: '901-802' },
		landingPages: { newsletter: seededUuid(0x1a9d, 1) },
		customFields: { ...FIELD_IDS },
		subscribers: {
			subscribed: byStatus('subscribed'),
			unconfirmed: byStatus('unconfirmed'),
			unsubscribed: byStatus('unsubscribed'),
		},
	};
	return { state, info };
}

function firstMessageId(state: SandboxState, type: CampaignType, campaignId: number): number {
	for (const message of state.messages.values()) {
		if (message.campaignType === type && message.campaignId === campaignId) return message.id;
	}
	throw new Error(`Seed has no message for ${type}${campaignId}`);
}

/** Seed extras tests may want to name (not part of the contract's SeedInfo). */
export const SEED_EXTRAS = {
	uiDraftBroadcast: BROADCAST_IDS.uiDraft,
	welcomeBroadcast: BROADCAST_IDS.welcome,
	followUpTips: `f${FOLLOW_UP_IDS.tips}`,
	vipSegment: 603,
	customersSegment: 604,
};
