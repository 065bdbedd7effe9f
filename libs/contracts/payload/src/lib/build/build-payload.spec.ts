import { MAX_BODY_BYTES, PAYLOAD_KEY_ORDER } from '../payload.constants';
import { articleInput, clusterModeInput } from '../testing/input.factory';
import { buildPayload } from './build-payload';

describe('buildPayload', () => {
  describe('mode', () => {
    it('article mode carries llm_response, locales and steps', () => {
      const { payload } = buildPayload(articleInput());
      expect(payload.mode).toBe('article');
      expect(payload.llm_response).toContain('## Was sich ändert');
      expect(Object.keys(payload.locales ?? {})).toEqual(['de']);
      expect(Object.keys(payload.steps)).toEqual(['brief', 'edit']);
    });

    it('cluster mode sends llm_response null, no locales key and steps {} even when the input has content', () => {
      const input = clusterModeInput({
        revision: { body: '# ignored', steps: { draft: { text: 't', model: 'm', tokens: 1, cost: 0 } } },
      });
      const { payload } = buildPayload(input);
      expect(payload.mode).toBe('cluster');
      expect(payload.llm_response).toBeNull();
      expect('locales' in payload).toBe(false);
      expect(payload.steps).toEqual({});
    });

    it('article mode without a body is refused', () => {
      expect(() => buildPayload(articleInput({ revision: { body: null } }))).toThrow(
        expect.objectContaining({ code: 'article_without_body' }),
      );
    });
  });

  describe('title and lead', () => {
    it('always sends both keys, null when the result has none', () => {
      const { payload } = buildPayload(articleInput({ revision: { title: null, lead: null } }));
      expect(payload).toHaveProperty('title', null);
      expect(payload).toHaveProperty('lead', null);
    });

    it('never fills lead from clusters[0].description', () => {
      const { payload } = buildPayload(clusterModeInput({ revision: { lead: null } }));
      expect(payload.clusters[0]?.description).not.toBe('');
      expect(payload.lead).toBeNull();
    });
  });

  describe('timestamps', () => {
    it('executed_at and published_at are the creation time from the input, in UTC with +00:00', () => {
      const { payload } = buildPayload(articleInput({ revision: { executedAt: '2026-11-21T11:00:00+01:00' } }));
      expect(payload.executed_at).toBe('2026-11-21T10:00:00.000+00:00');
      expect(payload.published_at).toBe(payload.executed_at);
    });

    it('does not read the clock: a later build of the same input has the same timestamps', () => {
      jest.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
      try {
        const first = buildPayload(articleInput()).body;
        jest.setSystemTime(new Date('2031-06-01T00:00:00Z'));
        expect(buildPayload(articleInput()).body.equals(first)).toBe(true);
      } finally {
        jest.useRealTimers();
      }
    });
  });

  describe('always-present keys', () => {
    it('orders keys as the spec tables: §2.2 first, then §2.3', () => {
      const { payload } = buildPayload(articleInput());
      const keys = Object.keys(payload);
      expect(keys).toEqual(PAYLOAD_KEY_ORDER.filter((key) => keys.includes(key)));
      expect(keys.slice(0, 3)).toEqual(['payload_version', 'mode', 'event']);
    });

    it('sets payload_version 5, workflow_name from the goal and articles_count from the articles', () => {
      const { payload } = buildPayload(articleInput({ goal: { name: 'Goal X' } }));
      expect(payload.payload_version).toBe(5);
      expect(payload.workflow_name).toBe('Goal X');
      expect(payload.articles_count).toBe(payload.articles.length);
    });

    it('normalises article published_at and keeps null when the source had no date', () => {
      const { payload } = buildPayload(articleInput());
      expect(payload.articles.map((article) => article.published_at)).toEqual(['2026-11-20T07:15:00.000+00:00', null]);
    });
  });

  describe('conditional keys', () => {
    it('leaves out image, tags, publish_mode, fields and sections when there is nothing to send', () => {
      const input = articleInput({
        revision: { image: null, sections: [], clusters: [{ id: 'c', description: 'd', keywords: [], version: 1 }] },
        goal: { publishPolicy: null },
        receiverFields: { reportedFields: null, values: { a: 'x' } },
      });
      const { payload } = buildPayload(input);
      for (const key of ['image', 'tags', 'publish_mode', 'fields', 'sections', 'parent_execution', 'new_articles']) {
        expect(Object.keys(payload)).not.toContain(key);
      }
    });

    it('sends image only when one was chosen, and publish_mode when the goal sets a policy', () => {
      const { payload } = buildPayload(articleInput({ goal: { publishPolicy: 'publish' } }));
      expect(payload.image).toEqual({ url: 'https://img.example.com/radroute.jpg', attribution: 'Foto: Stadt / J. Brandt' });
      expect(payload.publish_mode).toBe('publish');
    });
  });

  describe('body', () => {
    it('is the compact UTF-8 JSON of the payload', () => {
      const { payload, body } = buildPayload(articleInput());
      expect(body.toString('utf8')).toBe(JSON.stringify(payload));
      expect(JSON.parse(body.toString('utf8'))).toEqual(payload);
    });
  });

  describe('size', () => {
    /** A markdown body of about `bytes`, in paragraphs of prose. */
    const markdownOf = (bytes: number) => 'Grain prices fell for a third week, and traders watch export quotas.\n\n'.repeat(Math.ceil(bytes / 70));

    it('refuses a body over MAX_BODY_BYTES with body_too_large, naming both sizes', () => {
      const refused = () => buildPayload(articleInput({ revision: { body: markdownOf(MAX_BODY_BYTES) } }));
      expect(refused).toThrow(expect.objectContaining({ code: 'body_too_large', message: expect.stringMatching(/would be \d+ bytes; at most 2097152/) }));
    });

    it('builds a body just under the limit', () => {
      const { body } = buildPayload(articleInput({ revision: { body: markdownOf(MAX_BODY_BYTES / 4) } }));
      expect(body.length).toBeGreaterThan(MAX_BODY_BYTES / 2);
      expect(body.length).toBeLessThanOrEqual(MAX_BODY_BYTES);
    });
  });
});
