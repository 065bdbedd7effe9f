# Checks X-SH-Signature (see docs/receiving-webhooks.md). Run against the published vectors:
#   node libs/receiver/scripts/vectors-tsv.mjs | ruby docs/examples/verify/verify.rb
require 'base64'

# snippet:start
require 'openssl'

# True only for a genuine, fresh request. Pass the raw body bytes (request.raw_post), before any JSON parsing.
def verify(secret, timestamp, signature, raw_body, now: Time.now.to_i, tolerance_seconds: 300)
  return false unless timestamp.is_a?(String) && timestamp.match?(/\A\d{1,15}\z/)
  return false if (now - timestamp.to_i).abs > tolerance_seconds

  digest = OpenSSL::HMAC.hexdigest('SHA256', secret, "#{timestamp}.".b + raw_body.b)
  OpenSSL.secure_compare("sha256=#{digest}", signature.to_s)
end
# snippet:end

failed = 0
$stdin.each_line(chomp: true) do |line|
  name, secret_b64, ts, body_b64, expected = line.split("\t")
  secret = Base64.strict_decode64(secret_b64).force_encoding('UTF-8')
  body = Base64.strict_decode64(body_b64)
  now = ts.to_i
  ok = verify(secret, ts, expected, body, now: now) &&
       !verify(secret, ts, expected, body + ' ', now: now) &&
       !verify(secret, ts, expected, body, now: now + 301) &&
       !verify(secret, ts, 'sha256=zz', body, now: now) &&
       !verify(secret, ts, "sha256=\u017e", body, now: now) &&
       !verify(secret, '1e9', expected, body, now: now)
  puts "#{ok ? 'ok' : 'FAILED'} #{name}"
  failed += 1 unless ok
end
exit(failed.zero? ? 0 : 1)
