import GatehouseAWS
import GatehouseSMTP

/// Where mail goes (`GATEHOUSE_MAIL`), parsed and checked when the configuration is read.
public enum MailTransportSettings: Sendable {
    /// `outbox` (the default): `.eml` files in `<data dir>/outbox/`, nothing sent.
    case outbox
    /// `smtp://…` or `smtps://…`: an SMTP relay (Postmark, SendGrid, Mailgun, your own).
    case smtp(SMTPSettings)
    /// `ses`: Amazon SES v2 `SendEmail` (raw MIME), signed with the AWS credentials.
    case ses(SESSettings)
}

extension MailTransportSettings {
    /// Whether mail goes to the development outbox.
    public var isOutbox: Bool {
        if case .outbox = self { return true }
        return false
    }

    /// Where mail goes, for the log and the doctor (no password).
    public var redacted: String {
        switch self {
        case .outbox: "outbox"
        case .smtp(let settings): settings.redacted
        case .ses(let settings): "ses \(settings.region) (\(settings.endpoint))"
        }
    }
}
