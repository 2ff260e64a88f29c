import GatehouseCore
import GatehouseInfrastructure

/// A user as AdminGetUser or GetUser describe it.
struct CognitoUser: Sendable {
    let username: String?
    let status: String?
    let attributes: [String: String]

    init(_ output: [String: JSONValue]) {
        username = output["Username"]?.stringValue
        status = output["UserStatus"]?.stringValue
        var attributes: [String: String] = [:]
        for entry in (output["UserAttributes"] ?? output["Attributes"])?.arrayValue ?? [] {
            if let name = entry.objectValue?["Name"]?.stringValue, let value = entry.objectValue?["Value"]?.stringValue {
                attributes[name] = value
            }
        }
        self.attributes = attributes
    }

    var sub: String? { attributes["sub"] }
    var email: String? { attributes["email"] }
    /// Cognito keeps attributes as strings: `"true"`.
    var emailVerified: Bool { attributes["email_verified"]?.lowercased() == "true" }
    var name: String? { attributes["name"] }
    /// A sign-up whose address was never confirmed: the only status social sign-in may delete to
    /// hand the address to its verified owner.
    static let unconfirmed = "UNCONFIRMED"
}
