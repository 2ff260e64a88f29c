/// An SMS setting that cannot work, naming the environment variable to fix. The server stops at start
/// with it; the message never contains a secret.
public struct SMSSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The environment variable at fault (`GATEHOUSE_SMS`, `GATEHOUSE_SNS_REGION`, …).
    public var variable: String
    /// What is wrong and how to fix it.
    public var message: String

    /// An error.
    /// - Parameters:
    ///   - variable: The environment variable at fault.
    ///   - message: What is wrong, without secrets.
    public init(variable: String, _ message: String) {
        self.variable = variable
        self.message = message
    }

    /// `VARIABLE: message`.
    public var description: String { "\(variable): \(message)" }
}
