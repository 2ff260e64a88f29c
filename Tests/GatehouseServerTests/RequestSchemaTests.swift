import Foundation
import GatehouseAPI
import GatehouseCore
import GatehouseInfrastructure
import Testing

@testable import GatehouseServer

/// The body reader against every request member the document declares (`RequestSchemas`, generated
/// from openapi.yaml): for each string member, a body that breaks its declared presence, type,
/// emptiness or `maxLength` is refused, naming the member, and a body at the limits passes. A member
/// added to the document is covered here without a line of test changing.
@Suite("Contract: the body reader enforces the document's request schemas")
struct RequestSchemaTests {
    /// A body with every string member at its longest (required ones included), the others left out.
    static func valid(_ fields: [ContractField]) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        for field in fields where field.kind == .string {
            members[field.name] = .string(String(repeating: "a", count: field.maxLength ?? 64))
        }
        return members
    }

    static func refusal(_ field: ContractField, _ members: [String: JSONValue]) -> String? {
        do {
            try RequestBodyReader.check(field, in: JSONObjectReader(members: members), cap: 65_536)
            return nil
        } catch let error as GatehouseError {
            return "\(error)"
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test(arguments: RequestSchemas.operations.map { "\($0.method.uppercased()) \($0.path)" })
    func everyDeclaredMemberIsEnforced(_ operation: String) throws {
        let fields = try #require(RequestSchemas.operations.first { "\($0.method.uppercased()) \($0.path)" == operation }).fields
        let valid = Self.valid(fields)
        for field in fields where field.kind == .string {
            #expect(Self.refusal(field, valid) == nil, "\(operation) \(field.name) at its maxLength")
            if let maxLength = field.maxLength {
                var long = valid
                long[field.name] = .string(String(repeating: "a", count: maxLength + 1))
                #expect(Self.refusal(field, long) != nil, "\(operation) \(field.name) over its maxLength \(maxLength)")
            }
            var empty = valid
            empty[field.name] = .string("")
            #expect((Self.refusal(field, empty) != nil) == field.refusesEmpty, "\(operation) \(field.name) empty")
            var absent = valid
            absent[field.name] = nil
            #expect((Self.refusal(field, absent) != nil) == field.required, "\(operation) \(field.name) absent")
            var null = valid
            null[field.name] = .null
            #expect((Self.refusal(field, null) != nil) == field.required, "\(operation) \(field.name) null")
            var number = valid
            number[field.name] = .number(1)
            #expect(Self.refusal(field, number)?.contains(field.name) == true, "\(operation) \(field.name) a number")
        }
    }

    /// The generated body types decode what the document calls valid, and ignore unknown members
    /// unless the document says `additionalProperties: false` (the admin API's bodies).
    @Test func theGeneratedTypesDecodeTheDocumentsBodies() throws {
        let signIn = try JSONDecoder().decode(
            Operations.SignIn.Input.Body.JsonPayload.self,
            from: Data(#"{"email":"a@example.com","password":"pw 123456","extra":1}"#.utf8)
        )
        #expect(signIn.email == "a@example.com" && signIn.password == "pw 123456")
        let signUp = try JSONDecoder().decode(
            Operations.SignUp.Input.Body.JsonPayload.self,
            from: Data(#"{"email":"a@example.com","password":"pw 123456","full_name":null}"#.utf8)
        )
        #expect(signUp.password == "pw 123456" && signUp.fullName == nil)
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(
                Operations.CreateAdminUser.Input.Body.JsonPayload.self,
                from: Data(#"{"email":"a@example.com","unknown":true}"#.utf8)
            )
        }
    }

    /// The hand-decoded PATCH bodies read exactly the members the document declares.
    @Test func thePATCHBodiesReadTheDocumentsMembers() {
        #expect(Set(ProfileUpdateRequest.fields.map(\.name)) == Set(ProfileUpdateRequest.CodingKeys.allCases.map(\.rawValue)))
        #expect(Set(AdminUpdateUserRequest.fields.map(\.name)) == Set(AdminUpdateUserRequest.CodingKeys.allCases.map(\.rawValue)))
    }
}
