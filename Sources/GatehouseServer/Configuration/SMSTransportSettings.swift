import GatehouseAWS

/// Where text messages go (`GATEHOUSE_SMS`), parsed and checked when the configuration is read.
public enum SMSTransportSettings: Sendable, Equatable {
    /// `outbox` (the default): `.txt` files in `<data dir>/sms/`, nothing sent.
    case outbox
    /// `sns`: Amazon SNS `Publish` to a phone number, signed with the AWS credentials.
    case sns(SNSSettings)
}

extension SMSTransportSettings {
    /// Whether text messages go to the development outbox.
    public var isOutbox: Bool {
        if case .outbox = self { return true }
        return false
    }

    /// Where text messages go, for the log and the doctor (no secret).
    public var redacted: String {
        switch self {
        case .outbox: "outbox"
        case .sns(let settings): "sns \(settings.region) (\(settings.endpoint))"
        }
    }
}
