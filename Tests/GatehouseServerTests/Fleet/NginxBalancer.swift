import Foundation
import GatehouseTesting

/// Debian's nginx as a round-robin load balancer on a loopback port in front of `upstreams`: a child
/// process with its own configuration in a temporary directory. Each answer names the instance that
/// served it in `X-Upstream`. It appends the peer to `X-Forwarded-For` (docs/several-instances.md's edge example
/// replaces it), so a test can play many clients from one machine.
final class NginxBalancer: @unchecked Sendable {
    let port: Int
    private var process: ChildProcess?
    private let directory: URL

    static let binary = URL(fileURLWithPath: "/usr/sbin/nginx")
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    init(upstreams: [Int]) async throws {
        port = try FreePort.next()
        directory = URL(fileURLWithPath: "/tmp/gh-fleet-nginx-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let d = directory.path
        let servers = upstreams.map { "        server 127.0.0.1:\($0) max_fails=1 fail_timeout=2s;" }.joined(separator: "\n")
        let configuration = """
            worker_processes 1;
            daemon off;
            pid \(d)/nginx.pid;
            error_log \(d)/error.log warn;
            events { worker_connections 1024; }
            http {
                log_format fleet '$status $request_time $upstream_addr $upstream_status $upstream_response_time "$request"';
                access_log \(d)/access.log fleet;
                client_body_temp_path \(d)/body;
                proxy_temp_path \(d)/proxy;
                fastcgi_temp_path \(d)/fastcgi;
                uwsgi_temp_path \(d)/uwsgi;
                scgi_temp_path \(d)/scgi;
                upstream gatehouse {
            \(servers)
                }
                server {
                    listen 127.0.0.1:\(port);
                    location / {
                        proxy_pass http://gatehouse;
                        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                        proxy_set_header Host $host;
                        add_header X-Upstream $upstream_addr always;
                    }
                }
            }
            """
        let file = directory.appendingPathComponent("nginx.conf")
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("stderr.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = try ChildProcess(
            [Self.binary.path, "-p", d, "-c", file.path],
            stdout: .descriptor(handle.fileDescriptor),
            stderr: .descriptor(handle.fileDescriptor)
        )
        self.process = process
        let probe = HTTPProbe(timeout: 2)
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if await probe.send("GET", "http://127.0.0.1:\(port)/health").status != 0 { return }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let errors = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        stop()
        throw ServerProcess.TestFailure("nginx did not start: \(errors) \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    func stop() {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        if ProcessInfo.processInfo.environment["GATEHOUSE_KEEP_FLEET"] == nil { try? FileManager.default.removeItem(at: directory) }
    }
}
