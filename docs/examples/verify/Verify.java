// Checks X-SH-Signature (see docs/receiving-webhooks.md). Run against the published vectors (Java 11+):
//   node libs/receiver/scripts/vectors-tsv.mjs | java docs/examples/verify/Verify.java
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class Verify {
    // snippet:start
    /** True only for a genuine, fresh request. Pass the raw body bytes, before any JSON parsing. */
    static boolean verify(String secret, String timestamp, String signature, byte[] rawBody, long nowSeconds, long toleranceSeconds) {
        if (timestamp == null || signature == null || !timestamp.matches("\\d{1,15}")) return false;
        if (Math.abs(nowSeconds - Long.parseLong(timestamp)) > toleranceSeconds) return false;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.US_ASCII));
            String expected = "sha256=" + HexFormat.of().formatHex(mac.doFinal(rawBody)); // HexFormat: Java 17+
            return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII), signature.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.GeneralSecurityException e) {
            return false;
        }
    }
    // snippet:end

    public static void main(String[] args) throws Exception {
        int failed = 0;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.split("\t");
            String secret = new String(Base64.getDecoder().decode(f[1]), StandardCharsets.UTF_8);
            byte[] body = Base64.getDecoder().decode(f[3]);
            byte[] tampered = java.util.Arrays.copyOf(body, body.length + 1);
            tampered[body.length] = ' ';
            long now = Long.parseLong(f[2]);
            boolean ok = verify(secret, f[2], f[4], body, now, 300)
                && !verify(secret, f[2], f[4], tampered, now, 300)
                && !verify(secret, f[2], f[4], body, now + 301, 300)
                && !verify(secret, f[2], "sha256=zz", body, now, 300)
                && !verify(secret, f[2], "sha256=\u017e", body, now, 300)
                && !verify(secret, "1e9", f[4], body, now, 300);
            System.out.println((ok ? "ok " : "FAILED ") + f[0]);
            if (!ok) failed++;
        }
        System.exit(failed == 0 ? 0 : 1);
    }
}
