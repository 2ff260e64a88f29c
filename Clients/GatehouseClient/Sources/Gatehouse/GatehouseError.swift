import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything the SDK throws: the server's answer (with the contract's code), a failure to reach it
/// (which never ends the session), an answer that breaks the contract, no session, or the session store.
///
/// Switch on ``code`` for the contract's codes (``ErrorCode/invalidCredentials``,
/// ``ErrorCode/tooManyRequests`` …); ``errorDescription`` (`localizedDescription`) has words to show, always the
/// SDK's own or a server message the contract writes for people; ``debugDescription`` has the server's text for logs.
public enum GatehouseError: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, LocalizedError {
    /// The server answered with an error body.
    case server(ServerError)
    /// No answer arrived; the `URLError` keeps its code (`.notConnectedToInternet`, `.timedOut`, `.cancelled`
    /// for a cancelled task …). The session is kept.
    case transport(URLError)
    /// The answer was not what the contract says (a body that does not decode, for one).
    case invalidResponse(String)
    /// The call needs a signed-in user and there is none.
    case notSignedIn
    /// The ``TokenStore`` refused; see ``StorageFailure`` for what the client kept.
    case storage(StorageFailure)

    /// The contract's error code, when the server answered.
    public var code: ErrorCode? {
        if case .server(let error) = self { return error.code }
        return nil
    }

    /// The server's own text (``ServerError/message``), for logs: it may be meant for developers, so show
    /// ``errorDescription`` instead.
    public var serverMessage: String? {
        if case .server(let error) = self { return error.message }
        return nil
    }

    /// The `mfa_token` of an ``ErrorCode/mfaRequired`` refusal: the sign-in's first factor was right, and
    /// ``GatehouseClient/completeSecondFactor(mfaToken:code:)`` finishes it with the authenticator app's code.
    public var mfaToken: String? {
        if case .server(let error) = self { return error.mfaToken }
        return nil
    }

    /// The `URLError` code of a transport failure.
    public var urlErrorCode: URLError.Code? {
        if case .transport(let error) = self { return error.code }
        return nil
    }

    /// Whether the call was cancelled (the task was cancelled, or the request was).
    public var isCancelled: Bool { urlErrorCode == .cancelled }

    /// Whether the device is offline or the server could not be reached in time.
    public var isConnectivityProblem: Bool {
        guard let code = urlErrorCode else { return false }
        return [.notConnectedToInternet, .timedOut, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed]
            .contains(code)
    }

    /// A one-line account for logs (code, status and the server's message); not meant for people.
    public var description: String {
        switch self {
        case .server(let error): "\(error.code.rawValue) (HTTP \(error.status)): \(error.message)"
        case .transport(let error): "The server could not be reached: URLError \(error.code.rawValue)"
        case .invalidResponse(let detail): "Unexpected answer from the server: \(detail)"
        case .notSignedIn: "Not signed in."
        case .storage(let failure): failure.description
        }
    }

    /// ``description`` with the request id and, for a body that was not the contract's (a proxy's page), its
    /// start: everything a log or a support request needs. Not meant for people.
    public var debugDescription: String {
        guard case .server(let error) = self else { return description }
        var text = description
        if let requestID = error.requestID { text += " [request \(requestID)]" }
        if let body = error.rawBody { text += " body: \(body)" }
        return text
    }

    /// The sentence shown when nothing more specific fits: an unknown code, a proxy's page, a failure on the
    /// server's side.
    static let somethingWentWrong = "Something went wrong. Please try again."

    /// A sentence to show people for every case: fixed words for the contract's codes, the server's message
    /// only for the codes whose messages the contract writes for people (``ErrorCode/invalidRequest`` naming the
    /// field or number refused, ``ErrorCode/invalidPassword`` naming the rule, ``ErrorCode/conflict``,
    /// ``ErrorCode/forbidden``, ``ErrorCode/providerDisabled``) and only from a contract error body, and a generic
    /// sentence for codes this SDK does not know and for bodies that are not the contract's (a proxy's page).
    public var errorDescription: String? {
        switch self {
        case .transport(let error) where error.code == .cancelled: return "Cancelled."
        case .transport(let error) where error.code == .timedOut: return "The server took too long to answer. Try again."
        case .transport: return "Can't reach the server. Check your connection and try again."
        case .notSignedIn: return "Please sign in."
        case .invalidResponse: return Self.somethingWentWrong
        case .storage(let failure) where failure.operation == .load:
            return "Your saved sign-in can't be read yet. Unlock your device and try again."
        case .storage: return "Your sign-in can't be saved on this device right now. Unlock it and try again."
        case .server(let server): return Self.words(for: server)
        }
    }

    /// The codes whose server messages are written for people.
    /// (Not ``ErrorCode/reauthenticationRequired``: its message tells developers which field to send.)
    static let codesWithMessagesForPeople: Set<ErrorCode> = [.invalidRequest, .invalidPassword, .conflict, .forbidden, .providerDisabled]

    private static func words(for server: ServerError) -> String {
        if server.isContractBody, codesWithMessagesForPeople.contains(server.code), !server.message.isEmpty { return server.message }
        switch server.code {
        case .invalidCredentials: return "Incorrect email or password."
        case .userNotConfirmed: return "Confirm your email address first: enter the code we sent you."
        case .codeMismatch: return "That code isn't right. Check the message we sent and try again."
        case .codeExpired: return "That code has expired. Ask for a new one."
        case .invalidGrant, .unauthorized: return "Your session ended. Please sign in again."
        case .invalidToken: return "That sign-in couldn't be verified. Please try again."
        case .invalidRequest, .invalidPassword: return "Check what you entered and try again."
        case .conflict: return "This is already in use by another account."
        case .forbidden: return "This isn't allowed for your account."
        case .reauthenticationRequired: return "For your security, sign in again to do this."
        case .mfaRequired: return "Enter the code from your authenticator app (or a recovery code) to finish signing in."
        case .providerDisabled: return "This way of signing in isn't available."
        case .tooManyRequests:
            return server.retryAfter.map { "Too many attempts. Try again in \($0) seconds." } ?? "Too many attempts. Try again later."
        case .upstreamUnavailable, .unavailable: return "The service is busy right now. Try again shortly."
        case .notSupported: return "This isn't available on this server."
        default: return somethingWentWrong
        }
    }
}
