import Foundation
import GatehouseCore
import Testing

@testable import GatehouseMessaging

/// The texts come from templates like the mail does, one per kind, and stay one GSM-7 segment.
@Suite("SMS templates")
struct SMSTemplatesTests {
    @Test(arguments: SMSRequest.Kind.allCases)
    func everyKindHasATemplateThatRendersOneSegment(_ kind: SMSRequest.Kind) {
        #expect(SMSChannel.templates[kind] != nil, "\(kind.rawValue) has a template that parses")
        let text = SMSChannel.text(for: SMSRequest(kind: kind, to: "+447700900123", code: "482913", lifetime: 600), appName: "Acme")
        #expect(text.hasPrefix("Acme ") && text.contains("482913") && text.contains("expires in 10 min") && text.hasSuffix("Do not share it."))
        #expect(text.count <= 160 && text.allSatisfy { $0.isASCII }, "one GSM-7 segment: \(text)")
    }
}
