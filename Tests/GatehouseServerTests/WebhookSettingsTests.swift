import Foundation
import GatehouseServer
import Testing

/// The webhook settings: private addresses refused and a 5-second attempt unless configured.
@Suite("Webhooks: settings")
struct WebhookSettingsTests {
    @Test func privateAddressesAreRefusedAndAttemptsShortByDefault() throws {
        let plain = try GatehouseConfiguration.fromEnvironment([:])
        #expect(plain.webhookAllowPrivate == false && plain.webhookTimeout == 5)
        let set = try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_WEBHOOK_ALLOW_PRIVATE": "true", "GATEHOUSE_WEBHOOK_TIMEOUT": "2"])
        #expect(set.webhookAllowPrivate && set.webhookTimeout == 2)
        for env in [["GATEHOUSE_WEBHOOK_ALLOW_PRIVATE": "maybe"], ["GATEHOUSE_WEBHOOK_TIMEOUT": "0"], ["GATEHOUSE_WEBHOOK_TIMEOUT": "600"]] {
            #expect(throws: (any Error).self, "\(env)") { _ = try GatehouseConfiguration.fromEnvironment(env) }
        }
    }
}
