import NIOCore
import NIOSSL

/// One command for ``SMTPClientHandler``: bytes to send (none for the greeting), how long to wait for
/// the reply, and the promise the reply completes.
struct SMTPRequest: Sendable {
    /// The command line(s) or the message data; `nil` to wait for the greeting.
    var bytes: ByteBuffer?
    /// How long the reply may take; then the connection is closed and the promise fails.
    var timeout: TimeAmount
    /// For STARTTLS: the TLS to put in front of the pipeline once the server says 220, before any
    /// further byte is read (a server's bytes pipelined after its 220 are refused: CVE-2011-0411).
    var startTLS: (context: NIOSSLContext, serverHostname: String?)?
    /// Completed with the reply, or failed with an ``SMTPConnectionError``.
    var promise: EventLoopPromise<SMTPReply>
}

/// Why a connection can no longer be used.
enum SMTPConnectionError: Error, Sendable {
    /// No reply within the timeout.
    case timeout
    /// The server closed the connection (or sent 421 without being asked).
    case closed
    /// The server's bytes are not SMTP.
    case malformed(SMTPMalformedReply)
    /// The server spoke after its STARTTLS reply, before TLS.
    case bytesAfterStartTLS
    /// TLS failed (handshake, certificate) or the socket failed.
    case failed(any Error)
}

/// The SMTP client's channel handler: sends one command at a time, parses the replies, applies each
/// reply's timeout (then closes the connection) and fails everything once the connection is lost.
final class SMTPClientHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = SMTPRequest
    typealias OutboundOut = ByteBuffer

    private var parser = SMTPReplyParser()
    private var received: ByteBuffer?
    private var waiting: (request: SMTPRequest, timer: Scheduled<Void>)?
    private var failure: SMTPConnectionError?
    /// The same failure, for the connection (see ``SMTPFailureRecord``).
    private let record: SMTPFailureRecord

    init(record: SMTPFailureRecord) {
        self.record = record
    }
    /// A reply that came before any command waited for one: the greeting, normally (it may arrive
    /// before the request that waits for it); before any other command, the server's 421 or noise.
    private var early: SMTPReply?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let request = unwrapOutboundIn(data)
        if let failure {
            request.promise.fail(failure)
            promise?.fail(failure)
            return
        }
        precondition(waiting == nil, "SMTPConnection sends one command at a time")
        if let reply = early {
            early = nil
            guard request.bytes == nil else {  // the server spoke out of turn on an idle connection
                request.promise.fail(SMTPConnectionError.closed)
                promise?.fail(SMTPConnectionError.closed)
                fail(.closed, context: context)
                return
            }
            promise?.succeed()
            request.promise.succeed(reply)
            return
        }
        let timer = context.eventLoop.assumeIsolated().scheduleTask(in: request.timeout) { [weak self] in
            guard let self else { return }
            self.fail(.timeout, context: context)
        }
        waiting = (request, timer)
        if let bytes = request.bytes {
            context.writeAndFlush(wrapOutboundOut(bytes), promise: promise)
        } else {
            promise?.succeed()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if received == nil { received = bytes } else { received!.writeBuffer(&bytes) }
        do {
            while failure == nil, received != nil, let reply = try parser.parse(&received!) {
                deliver(reply, context: context)
            }
            if received?.readableBytes == 0 { received = nil }
        } catch {
            fail(.malformed(error), context: context)
        }
    }

    private func deliver(_ reply: SMTPReply, context: ChannelHandlerContext) {
        guard let (request, timer) = waiting else {
            // Unasked-for: the greeting, kept for the request that waits for it; else (a 421 before the
            // server closes an idle connection, or noise) the connection is not reusable.
            if early == nil, reply.code != 421 { early = reply } else { fail(.closed, context: context) }
            return
        }
        timer.cancel()
        waiting = nil
        if reply.code == 421 {
            failure = .closed
            context.close(promise: nil)
        } else if let tls = request.startTLS, reply.code == 220 {
            guard (received?.readableBytes ?? 0) == 0 else {
                request.promise.fail(SMTPConnectionError.bytesAfterStartTLS)
                fail(.bytesAfterStartTLS, context: context)
                return
            }
            do {
                let handler = try NIOSSLClientHandler(context: tls.context, serverHostname: tls.serverHostname)
                try context.pipeline.syncOperations.addHandler(handler, position: .first)
            } catch {
                request.promise.fail(SMTPConnectionError.failed(error))
                fail(.failed(error), context: context)
                return
            }
        }
        request.promise.succeed(reply)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(.closed, context: context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(.failed(error), context: context)
    }

    /// Marks the connection unusable, fails the command waiting (if any) and closes.
    private func fail(_ error: SMTPConnectionError, context: ChannelHandlerContext) {
        if let (request, timer) = waiting {
            waiting = nil
            timer.cancel()
            request.promise.fail(failure ?? error)
        }
        guard failure == nil else { return }
        failure = error
        record.record(error)
        context.close(promise: nil)
    }
}
