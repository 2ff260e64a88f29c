import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging
import Mustache

/// The SMS channel of the delivery queue: a queued ``SMSRequest`` rendered as one short text and sent
/// through the configured ``SMSTransport`` (the outbox or Amazon SNS).
public struct SMSChannel: TransportChannel {
    /// `sms`.
    public let name = "sms"
    let appName: String
    let transport: any SMSTransport

    /// The channel.
    /// - Parameters:
    ///   - appName: The app's name, the text's first words.
    ///   - transport: Sends the texts.
    public init(appName: String, transport: any SMSTransport) {
        self.appName = appName
        self.transport = transport
    }

    /// The transport (its name and shutdown are the channel's).
    public var messageTransport: any MessageTransport { transport }

    /// Decodes the ``SMSRequest``.
    /// - Parameters:
    ///   - plaintext: The request as JSON.
    ///   - id: The message's id.
    /// - Returns: The message; its code is valid for the request's lifetime.
    /// - Throws: A decoding error.
    public func open(_ plaintext: Data, id: String) throws -> QueuedDelivery {
        let request = try JSONDecoder().decode(SMSRequest.self, from: plaintext)
        let sms = OutgoingSMS(id: id, to: request.to, text: Self.text(for: request, appName: appName), kind: request.kind.rawValue)
        let transport = self.transport
        return QueuedDelivery(codeLifetime: TimeInterval(request.lifetime)) { _ in
            guard OutgoingSMS.isE164(sms.to) else { throw DeliveryError(.permanent, "the queued number is not E.164") }
            try await transport.send(sms)
        }
    }

    /// The text, from `Resources/SMS/<kind>.text.mustache`: the app's name, the code, its lifetime, and
    /// a warning not to share it — short enough for one GSM-7 segment with a usual app name.
    /// - Parameters:
    ///   - request: The request.
    ///   - appName: The app's name.
    /// - Returns: The text.
    package static func text(for request: SMSRequest, appName: String) -> String {
        let context: [String: Any] = ["app_name": appName, "code": request.code, "minutes": max(1, request.lifetime / 60)]
        let rendered = templates[request.kind]?.render(context) ?? ""
        return rendered.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The built-in text templates, one per kind (checked by a test to parse and to exist for every kind).
    static let templates: [SMSRequest.Kind: MustacheTemplate] = {
        var templates: [SMSRequest.Kind: MustacheTemplate] = [:]
        for kind in SMSRequest.Kind.allCases {
            let bytes: [UInt8]
            switch kind {
            case .signIn: bytes = PackageResources.phone_sign_in_text_mustache
            case .linkPhone: bytes = PackageResources.link_phone_text_mustache
            }
            templates[kind] = try? MustacheTemplate(string: String(decoding: bytes, as: UTF8.self))
        }
        return templates
    }()
}
