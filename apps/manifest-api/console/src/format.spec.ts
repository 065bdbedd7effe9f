import { escapedBytes, formatDuration, hostOf, isMoving, prettyBody, stateLabel, stateTone, statusText } from './format';

describe('console formatting', () => {
  it('names every result state and gives failures and successes their tone', () => {
    expect(stateLabel('needs_approval')).toBe('Needs approval');
    expect(stateTone('delivered')).toBe('success');
    expect(stateTone('failed')).toBe('danger');
    expect(stateTone('retry_scheduled')).toBe('warning');
  });

  it('treats only states that change on their own as moving', () => {
    expect(['received', 'queued', 'delivering', 'retry_scheduled', 'retry_requested'].every((s) => isMoving(s as never))).toBe(true);
    expect(['needs_approval', 'awaiting_approval', 'delivered', 'failed', 'rejected'].some((s) => isMoving(s as never))).toBe(false);
  });

  it('writes durations in ms below a second and in seconds above', () => {
    expect(formatDuration(42)).toBe('42 ms');
    expect(formatDuration(1450)).toBe('1.4 s');
    expect(formatDuration(30_000)).toBe('30 s');
  });

  it('shows HTTP statuses with their reason, and a missing answer as such', () => {
    expect(statusText(204)).toBe('204 No Content');
    expect(statusText(599)).toBe('599');
    expect(statusText(null)).toBe('no answer');
  });

  it('indents JSON bodies and leaves other text alone', () => {
    expect(prettyBody('{"ok":true}')).toBe('{\n  "ok": true\n}');
    expect(prettyBody('{not json')).toBe('{not json');
    expect(prettyBody('accepted')).toBe('accepted');
  });

  it('shortens a URL to its host', () => {
    expect(hostOf('https://cms.example.com:8443/hooks/owd?x=1')).toBe('cms.example.com:8443');
    expect(hostOf('not a url')).toBe('not a url');
  });
});

describe('escapedBytes', () => {
  it('shows printable ASCII and line breaks as they are and every other byte as \\xNN', () => {
    const base64 = btoa(String.fromCharCode(0x89, 0x50, 0x4e, 0x47, 0x0a, 0x00, 0xff, 0x41));
    expect(escapedBytes(base64)).toBe('\\x89PNG\n\\x00\\xffA');
  });
});
