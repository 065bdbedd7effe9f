// Checks X-SH-Signature (see docs/receiving-webhooks.md). Run against the published vectors (Mono or .NET):
//   mcs -out:Verify.exe docs/examples/verify/Verify.cs && node libs/receiver/scripts/vectors-tsv.mjs | mono Verify.exe
using System;
using System.Linq;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;

public static class Verify
{
    // snippet:start
    /// <summary>True only for a genuine, fresh request. Pass the raw body bytes, before any JSON parsing.</summary>
    public static bool IsGenuine(string secret, string timestamp, string signature, byte[] rawBody, long nowSeconds, long toleranceSeconds = 300)
    {
        if (timestamp == null || signature == null || !Regex.IsMatch(timestamp, @"\A[0-9]{1,15}\z")) return false;
        if (Math.Abs(nowSeconds - long.Parse(timestamp)) > toleranceSeconds) return false;
        using (var hmac = new HMACSHA256(Encoding.UTF8.GetBytes(secret)))
        {
            var message = Encoding.ASCII.GetBytes(timestamp + ".").Concat(rawBody).ToArray();
            var expected = "sha256=" + BitConverter.ToString(hmac.ComputeHash(message)).Replace("-", "").ToLowerInvariant();
            return FixedTimeEquals(Encoding.ASCII.GetBytes(expected), Encoding.UTF8.GetBytes(signature));
        }
    }

    // .NET Core 2.1+ has CryptographicOperations.FixedTimeEquals; this one also runs on Mono and .NET Framework.
    static bool FixedTimeEquals(byte[] a, byte[] b)
    {
        if (a.Length != b.Length) return false;
        int diff = 0;
        for (int i = 0; i < a.Length; i++) diff |= a[i] ^ b[i];
        return diff == 0;
    }
    // snippet:end

    public static int Main()
    {
        int failed = 0;
        string line;
        while ((line = Console.In.ReadLine()) != null)
        {
            var f = line.Split('\t');
            var secret = Encoding.UTF8.GetString(Convert.FromBase64String(f[1]));
            var body = Convert.FromBase64String(f[3]);
            var tampered = body.Concat(new[] { (byte)' ' }).ToArray();
            var now = long.Parse(f[2]);
            var ok = IsGenuine(secret, f[2], f[4], body, now)
                && !IsGenuine(secret, f[2], f[4], tampered, now)
                && !IsGenuine(secret, f[2], f[4], body, now + 301)
                && !IsGenuine(secret, f[2], "sha256=zz", body, now)
                && !IsGenuine(secret, f[2], "sha256=\u017e", body, now)
                && !IsGenuine(secret, "1e9", f[4], body, now);
            Console.WriteLine((ok ? "ok " : "FAILED ") + f[0]);
            if (!ok) failed++;
        }
        return failed == 0 ? 0 : 1;
    }
}
