import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The small page the Apple callback answers with: it sends the browser to the app's URL scheme.
///
/// The script and style are constants, allowed by their hashes in a strict Content-Security-Policy;
/// the only variable, the target URL, is already percent-encoded and is written once, escaped for an
/// HTML attribute, into the link the script follows. Nothing from the request reaches the page raw.
enum AppleCallbackPage {
    static let script = #"var l=document.getElementById("continue");if(l){window.location.replace(l.getAttribute("href"));}"#
    static let style =
        "body{font-family:-apple-system,system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;color:#1d1d1f}main{text-align:center;padding:2rem}a{color:#0066cc}"

    static let contentSecurityPolicy = PageSecurityPolicy.pinnedInline(script: script, style: style).description

    static func response(redirectingTo target: String) -> Response {
        let isError = target.contains("?error=") || target.contains("&error=")
        let html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(isError ? "Sign-in did not complete" : "Signing you in…")</title>
            <style>\(style)</style>
            </head>
            <body>
            <main>
            <h1>\(isError ? "Sign-in did not complete" : "Signing you in…")</h1>
            <p>If the app does not open by itself, <a id="continue" href="\(escapeAttribute(target))">return to the app</a>.</p>
            </main>
            <script>\(script)</script>
            </body>
            </html>
            """
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store", .contentSecurityPolicy: contentSecurityPolicy,
                .init("Referrer-Policy")!: "no-referrer", .init("X-Content-Type-Options")!: "nosniff", .init("X-Frame-Options")!: "DENY",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html))
        )
    }

    static func escapeAttribute(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "`": out += "&#96;"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { out += "&#\(scalar.value);" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
