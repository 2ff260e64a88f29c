import GatehouseInfrastructure

/// One operation's JSON input, read as Cognito reads it: a member of the wrong JSON type is a
/// `SerializationException`, a missing or empty required member an `InvalidParameterException`.
struct CognitoAPIInput: Sendable {
    let members: [String: JSONValue]

    /// A required string.
    func string(_ name: String) throws(CognitoAPIError) -> String {
        guard let value = try optionalString(name), !value.isEmpty else {
            throw .invalidParameter(
                "1 validation error detected: Value at '\(Self.camel(name))' failed to satisfy constraint: Member must not be null"
            )
        }
        return value
    }

    /// A string that may be absent.
    func optionalString(_ name: String) throws(CognitoAPIError) -> String? {
        switch members[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?: throw .serialization("Expected a string for \(name), found \(other.typeName).")
        }
    }

    /// A map of strings (`AuthParameters`, `ChallengeResponses`, `ClientMetadata`).
    func stringMap(_ name: String) throws(CognitoAPIError) -> [String: String] {
        switch members[name] {
        case nil, .null?: return [:]
        case .object(let object)?:
            var map: [String: String] = [:]
            for (key, value) in object {
                guard case .string(let string) = value else { throw .serialization("Expected string values in \(name).") }
                map[key] = string
            }
            return map
        case let other?: throw .serialization("Expected an object for \(name), found \(other.typeName).")
        }
    }

    /// A list of `{"Name": …, "Value": …}` (`UserAttributes`).
    func attributes(_ name: String) throws(CognitoAPIError) -> [(name: String, value: String)] {
        switch members[name] {
        case nil, .null?: return []
        case .array(let items)?:
            return try items.map { item throws(CognitoAPIError) in
                guard case .object(let attribute) = item, case .string(let key)? = attribute["Name"] else {
                    throw .serialization("Expected {Name, Value} objects in \(name).")
                }
                switch attribute["Value"] {
                case nil, .null?: return (key, "")
                case .string(let value)?: return (key, value)
                default: throw .serialization("Expected a string Value in \(name).")
                }
            }
        case let other?: throw .serialization("Expected an array for \(name), found \(other.typeName).")
        }
    }

    private static func camel(_ name: String) -> String {
        name.prefix(1).lowercased() + name.dropFirst()
    }
}
