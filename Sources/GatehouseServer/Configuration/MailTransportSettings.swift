/// Where mail goes (`GATEHOUSE_MAIL`), parsed and checked when the configuration is read.
public enum MailTransportSettings: Sendable {
    /// `outbox` (the default): `.eml` files in `<data dir>/outbox/`, nothing sent.
    case outbox
}

extension MailTransportSettings {
    /// Whether mail goes to the development outbox.
    public var isOutbox: Bool {
        if case .outbox = self { return true }
        return false
    }
}
