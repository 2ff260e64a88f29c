import GatehouseAWS

/// What the moto emulators here share (``MotoSES``, ``MotoSNS``): the region they run in and the
/// credentials calls are signed with (moto accepts any, and checks nothing but the signature's form).
public enum Moto {
    /// `us-east-1`.
    public static let region = "us-east-1"
    /// AWS's documented example keys.
    public static let credentials = SigV4Signer.Credentials(
        accessKeyID: "AKIAIOSFODNN7EXAMPLE",
        secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    )
    /// `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` for a server configured from the environment.
    public static var credentialEnvironment: [String: String] {
        ["AWS_ACCESS_KEY_ID": credentials.accessKeyID, "AWS_SECRET_ACCESS_KEY": credentials.secretAccessKey]
    }
}
