import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request. The default is ``URLSessionTransport``; tests pass a stub.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response whatever its status (the client reads error bodies itself).
    ///
    /// - Parameter request: The request, with method, headers and body set.
    /// - Returns: The body (empty when there is none) and the HTTP response.
    /// - Throws: Only when no HTTP response arrived (no network, timeout, TLS failure); the client turns
    ///   it into ``GatehouseError/transport(_:)``, which keeps the session.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// ``HTTPTransport`` over a `URLSession` (ephemeral by default: no cookies, no cache).
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    // URLSession is thread-safe; it is not marked Sendable on every platform.
    private let session: URLSession

    /// A transport over `session`, or over a new ephemeral session that stores no cookies and caches nothing.
    ///
    /// - Parameters:
    ///   - session: The session to use; `nil` makes the ephemeral one (the usual choice).
    ///   - timeout: The request timeout in seconds for the ephemeral session; ignored when `session` is given.
    public init(session: URLSession? = nil, timeout: TimeInterval = 30) {
        if let session {
            self.session = session
        } else {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            configuration.httpCookieStorage = nil
            configuration.urlCache = nil
            self.session = URLSession(configuration: configuration)
        }
    }

    /// Sends `request` with a data task.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The body (empty when there is none) and the HTTP response, whatever its status.
    /// - Throws: The `URLSession` error when the request failed before a response (`URLError`; `.cancelled`
    ///   when the calling task was cancelled), or `URLError(.badServerResponse)` when the answer was not HTTP.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response = response as? HTTPURLResponse {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// The data task of one request, so a cancelled Swift task cancels it (its completion then reports `.cancelled`).
private final class TaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    func set(_ task: URLSessionDataTask) {
        let cancelNow = lock.withLock {
            self.task = task
            return cancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }
}
