import Foundation
import GatehouseServer
import Testing

/// Which addresses a webhook may reach (issue 30 part 1): only public ones, unless allowed.
@Suite("Webhooks: public addresses only")
struct WebhookAddressesTests {
    @Test func onlyPublicAddressesArePublic() {
        for address in ["93.184.215.14", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"] {
            #expect(WebhookAddresses.isPublic(address), "\(address)")
        }
        for address in [
            "127.0.0.1", "127.9.9.9", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
            "224.0.0.1", "255.255.255.255", "192.0.2.1", "198.18.0.1", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1",
            "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "64:ff9b::a9fe:a9fe", "2001:db8::1", "not an address", "",
        ] {
            #expect(!WebhookAddresses.isPublic(address), "\(address)")
        }
        #expect(WebhookAddresses.isPublic("172.32.0.1") && WebhookAddresses.isPublic("100.128.0.1"), "the ranges' edges")
    }

    @Test func hostsAreResolvedAndEveryAddressChecked() async throws {
        let strict = WebhookAddresses(allowPrivate: false)
        await #expect(throws: (any Error).self) { try await strict.check(host: "localhost") }
        await #expect(throws: (any Error).self) { try await strict.check(host: "127.0.0.1") }
        await #expect(throws: (any Error).self) { try await strict.check(host: "no-such-host.invalid") }
        #expect(try await strict.resolveChecked(host: "93.184.215.14") == "93.184.215.14")
        let open = WebhookAddresses(allowPrivate: true)
        #expect(try await open.resolveChecked(host: "127.0.0.1") == "127.0.0.1")
    }
}
