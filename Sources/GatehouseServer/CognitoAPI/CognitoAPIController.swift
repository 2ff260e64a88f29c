import Foundation
import GatehouseCore
import GatehouseInfrastructure
import HTTPTypes
import Hummingbird
import Logging

/// Amazon Cognito's user-pool API on the embedded pool (`GATEHOUSE_COGNITO_API`): `POST /` with
/// `X-Amz-Target: AWSCognitoIdentityProviderService.<Operation>` and a JSON body, answered in
/// Cognito's shapes, each operation on the same use cases as the native API (no second throttle, code
/// rule or enumeration rule). Operations this pool does not serve answer a Cognito error and do nothing;
/// the `Admin*` operations and `ListUsers`, which AWS only serves signed, are never served.
struct CognitoAPIController {
    let passwords: PasswordAuthentication
    let sessions: Sessions
    let accounts: Accounts
    let profiles: Profiles
    let secondFactor: SecondFactor
    let passkeys: Passkeys
    let signInChoices: SignInChoices
    let client: AppClient
    let body: RequestBodyReader

    static let targetPrefix = "AWSCognitoIdentityProviderService."
    static let contentType = "application/x-amz-json-1.1"

    /// Adds `POST /`.
    /// - Parameter group: Where the route goes.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.post("/", use: handle)
    }

    @Sendable func handle(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let operation = request.headers[.amzTarget].map { target in
            target.hasPrefix(Self.targetPrefix) ? String(target.dropFirst(Self.targetPrefix.count)) : target
        }
        do {
            guard let operation, !operation.isEmpty else {
                throw CognitoAPIError("UnknownOperationException", "Missing X-Amz-Target.")
            }
            let input = try await read(request)
            let output = try await perform(operation, input, request: request, context: context)
            return Self.response(.ok, body: output.serialized())
        } catch let error as CognitoAPIError {
            return Self.errorResponse(error, operation: operation, context: context)
        } catch let error as GatehouseError {
            if error.code == .internalError || error.code == .unavailable || error.code == .upstreamUnavailable {
                context.logger.error(
                    "cognito api operation failed",
                    metadata: ["cognito.operation": .string(operation ?? ""), "error": .string(error.cause ?? error.message)]
                )
            }
            return Self.errorResponse(error.cognitoAPIError, operation: operation, context: context)
        } catch let error as TransportError {
            let mapped =
                error.code == .payloadTooLarge
                ? CognitoAPIError("RequestEntityTooLargeException", error.message, status: .contentTooLarge)
                : CognitoAPIError.serialization(error.message)
            return Self.errorResponse(mapped, operation: operation, context: context)
        } catch {
            context.logger.error(
                "cognito api operation failed",
                metadata: ["cognito.operation": .string(operation ?? ""), "error": .string("\(error)")]
            )
            return Self.errorResponse(
                CognitoAPIError("InternalErrorException", "Internal server error.", status: .internalServerError),
                operation: operation,
                context: context
            )
        }
    }

    /// The body as one JSON object: `application/x-amz-json-1.1` (or 1.0, or JSON), at most the
    /// server's body limit, strict JSON (a duplicate member is refused, as a wrong type is).
    private func read(_ request: Request) async throws -> CognitoAPIInput {
        let contentType = request.headers[.contentType]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let contentType, ["application/x-amz-json-1.1", "application/x-amz-json-1.0", "application/json"].contains(contentType) else {
            throw CognitoAPIError.serialization("Content-Type must be application/x-amz-json-1.1.")
        }
        let buffer = try await body.collect(request)
        let bytes = buffer.readableBytesView
        let parsed: JSONValue
        do {
            parsed = try StrictJSONParser().parse(bytes.isEmpty ? Array("{}".utf8) : Array(bytes))
        } catch {
            throw CognitoAPIError.serialization("The request body is not valid JSON (\(error)).")
        }
        guard case .object(let members) = parsed else { throw CognitoAPIError.serialization("The request body must be a JSON object.") }
        return CognitoAPIInput(members: members)
    }

    /// Checks `ClientId` against the pool's app client.
    func requireClient(_ input: CognitoAPIInput) throws(CognitoAPIError) {
        let id = try input.string("ClientId")
        guard ConstantTime.equals(id, client.id) else {
            throw CognitoAPIError("ResourceNotFoundException", "User pool client \(id.prefix(128)) does not exist.")
        }
    }

    static func response(_ status: HTTPResponse.Status, body: [UInt8]) -> Response {
        var headers: HTTPFields = [.contentType: contentType, .cacheControl: "no-store"]
        headers[.amznRequestID] = UUID().uuidString.lowercased()
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func errorResponse(_ error: CognitoAPIError, operation: String?, context: GatehouseRequestContext) -> Response {
        context.logger.info(
            "cognito api refused",
            metadata: ["cognito.operation": .string(String((operation ?? "").prefix(64))), "cognito.error": .string(error.type)]
        )
        let body: JSONValue = .object(["__type": .string(error.type), "message": .string(error.message)])
        var response = response(error.status, body: body.serialized())
        response.headers[.amznErrorType] = error.type
        return response
    }
}
