<?php
// Checks X-SH-Signature (see docs/receiving-webhooks.md). Run against the published vectors:
//   node libs/receiver/scripts/vectors-tsv.mjs | php docs/examples/verify/verify.php

// snippet:start
/** True only for a genuine, fresh request. $rawBody is file_get_contents('php://input'), before json_decode. */
function verify(string $secret, ?string $timestamp, ?string $signature, string $rawBody, ?int $now = null, int $toleranceSeconds = 300): bool
{
    if ($timestamp === null || !preg_match('/^\d{1,15}$/D', $timestamp)) {
        return false;
    }
    if (abs(($now ?? time()) - (int) $timestamp) > $toleranceSeconds) {
        return false;
    }
    $expected = 'sha256=' . hash_hmac('sha256', $timestamp . '.' . $rawBody, $secret);
    return hash_equals($expected, $signature ?? '');
}
// snippet:end

$failed = 0;
foreach (file('php://stdin', FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    [$name, $secretB64, $ts, $bodyB64, $expected] = explode("\t", $line);
    $secret = base64_decode($secretB64, true);
    $body = base64_decode($bodyB64, true);
    $now = (int) $ts;
    $ok = verify($secret, $ts, $expected, $body, $now)
        && !verify($secret, $ts, $expected, $body . ' ', $now)
        && !verify($secret, $ts, $expected, $body, $now + 301)
        && !verify($secret, $ts, 'sha256=zz', $body, $now)
        && !verify($secret, $ts, "sha256=\u{17e}", $body, $now)
        && !verify($secret, '1e9', $expected, $body, $now);
    echo ($ok ? 'ok ' : 'FAILED ') . $name . "\n";
    $failed += $ok ? 0 : 1;
}
exit($failed === 0 ? 0 : 1);
