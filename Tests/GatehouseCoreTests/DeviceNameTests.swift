import Foundation
import Testing

@testable import GatehouseCore

/// The session list's device names, from real `User-Agent` strings, and the coarse client addresses.
@Suite("Policy: device names and coarse addresses for the session list")
struct DeviceNameTests {
    static let cases: [(userAgent: String, device: String)] = [
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
            "Chrome on macOS"
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
            "Safari on iPhone"
        ),
        (
            "Mozilla/5.0 (iPad; CPU OS 16_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
            "Chrome on iPad"
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
            "Safari on macOS"
        ),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on Windows"),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
            "Edge on Windows"
        ),
        (
            "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
            "Chrome on Android"
        ),
        (
            "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
            "Samsung Internet on Android"
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0",
            "Opera on Windows"
        ),
        ("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox on Linux"),
        (
            "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
            "Chrome on ChromeOS"
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15",
            "Firefox on iPhone"
        ),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148", "Web view on iPhone"),
        ("GatehouseSDK/0.1 (iOS 17.2)", "Gatehouse SDK on iOS"),
        ("GatehouseSDK/0.1 (macOS 14.5)", "Gatehouse SDK on macOS"),
        ("GatehouseSDK/0.1", "Gatehouse SDK"),
        ("okhttp/4.12.0", "okhttp on Android"),
        ("Dalvik/2.1.0 (Linux; U; Android 13; Pixel 7 Build/TQ3A.230901.001)", "App on Android"),
        ("python-requests/2.32.3", "python-requests"),
        ("curl/8.5.0", "curl"),
        ("Go-http-client/2.0", "Go HTTP client"),
        ("Boto3/1.35.36 md/Botocore#1.35.36 ua/2.0 os/linux#6.1.0 md/arch#x86_64 lang/python#3.11.2", "boto3"),
        ("node-fetch/1.0 (+https://github.com/bitinn/node-fetch)", "node-fetch"),
        ("PostmanRuntime/7.42.0", "Postman"),
        ("Hero365/3 CFNetwork/1568.200.51 Darwin/24.1.0", "Hero365 on iOS or macOS"),
        ("CFNetwork/1568.200.51 Darwin/24.1.0", "App on iOS or macOS"),
        ("MyTool/2.1 (Windows NT 10.0)", "MyTool on Windows"),
        ("SomeCrawler/1.0", "SomeCrawler"),
    ]

    @Test("real User-Agent strings", arguments: cases)
    func realUserAgents(_ userAgent: String, _ device: String) {
        #expect(DeviceName.describe(userAgent) == device)
    }

    @Test("nothing, garbage and hostile input: a fixed word or a plain product name, never the raw text")
    func hostileUserAgents() {
        #expect(DeviceName.describe(nil) == "Unknown device")
        #expect(DeviceName.describe("") == "Unknown device")
        #expect(DeviceName.describe("<script>alert(1)</script>") == "Unknown device")
        #expect(DeviceName.describe("\u{202E}evil/1.0") == "Unknown device", "a bidi override is not a product name")
        #expect(DeviceName.describe("a\u{0}b/1") == "Unknown device")
        #expect(DeviceName.describe("'; DROP TABLE gh_sessions; --") == "Unknown device")
        #expect(DeviceName.describe(String(repeating: "A", count: 40) + "/1.0") == "Unknown device", "an over-long product name")
        #expect(DeviceName.describe(String(repeating: "x", count: 5000)) == "Unknown device")
        #expect(DeviceName.describe("Ünïcødé/1.0") == "Unknown device")
        let long = String(repeating: "Mozilla/5.0 (Windows NT 10.0) Chrome/1 ", count: 100)
        #expect(DeviceName.describe(long) == "Chrome on Windows")
        for ua in ["<img src=x>/1", "a b c", "1Password/8", "-rf/1"] {
            let device = DeviceName.describe(ua)
            #expect(!device.contains("<") && !device.contains(" b "), "\(ua) -> \(device)")
        }
    }

    @Test("coarse addresses: IPv4 /24, IPv6 /48, mapped IPv4 as IPv4, garbage as nothing")
    func coarseAddresses() {
        let cases: [(String, String?)] = [
            ("203.0.113.77", "203.0.113.0/24"),
            ("198.51.100.7", "198.51.100.0/24"),
            ("2001:db8:1234:5678::1", "2001:db8:1234::/48"),
            ("2001:db8::1", "2001:db8::/48"),
            ("2001:db8:0:abcd::1", "2001:db8::/48"),
            ("2001:0:5::9", "2001:0:5::/48"),
            ("fe80::1%eth0", "fe80::/48"),
            ("::ffff:192.0.2.44", "192.0.2.0/24"),
            ("::1", "::/48"),
            ("unknown", nil),
            ("", nil),
            ("999.1.1.1", nil),
            ("203.0.113", nil),
            ("2001:db8::zz", nil),
            ("/var/run/socket", nil),
        ]
        for (address, coarse) in cases {
            #expect(ClientInfo(address: address).coarseAddress == coarse, "\(address)")
        }
    }
}
