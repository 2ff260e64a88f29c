import Foundation
import GatehouseInfrastructure

/// Typed, strict access to the members of a JSON object, for request bodies.
///
/// Every failure is an `invalid_request` naming the field and what was wrong, never echoing the value.
/// Unknown members are ignored (the contract says so); strings are limited in length.
public struct JSONObjectReader: Sendable {
    /// The object's members, as decoded.
    package let members: [String: JSONValue]

    /// - Parameter value: A decoded request body.
    /// - Throws: `invalid_request` when the body is not a JSON object.
    package init(_ value: JSONValue) throws(GatehouseError) {
        guard case .object(let members) = value else {
            throw .invalidRequest("The request body must be a JSON object.")
        }
        self.members = members
    }

    /// - Parameter members: The members of an object already taken apart.
    package init(members: [String: JSONValue]) {
        self.members = members
    }

    /// A required, non-empty string of at most `maxLength` characters.
    public func string(_ name: String, maxLength: Int = 4096) throws(GatehouseError) -> String {
        guard let value = try optionalString(name, maxLength: maxLength) else {
            throw .invalidRequest("'\(name)' is required.")
        }
        return value
    }

    /// An optional string; `null` and absence both mean "not given". Present but empty counts as given.
    public func optionalString(_ name: String, maxLength: Int = 4096) throws(GatehouseError) -> String? {
        switch members[name] {
        case nil, .null?: return nil
        case .string(let value)?:
            if value.isEmpty { throw .invalidRequest("'\(name)' must not be empty.") }
            if value.unicodeScalars.count > maxLength {
                throw .invalidRequest("'\(name)' is longer than \(maxLength) characters.")
            }
            return value
        case let other?:
            throw .invalidRequest("'\(name)' must be a string, not \(other.typeName).")
        }
    }
}
