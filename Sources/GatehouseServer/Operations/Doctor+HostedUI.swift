import Foundation
import GatehouseCore

extension Doctor {
    /// `GATEHOUSE_HOSTED_UI`: what the apps must be configured with, and what keeps a browser flow from
    /// working (an http issuer: no `Secure` cookies and no Amplify; Apple's cross-site answer needs https).
    static func hostedUIFindings(_ c: GatehouseConfiguration) -> [DoctorFinding] {
        guard c.hostedUI else { return [] }
        var findings: [DoctorFinding] = [
            .ok(
                "hosted-ui.endpoints",
                "The hosted UI is served at \(c.resolvedIssuer)/oauth2/authorize for redirect URIs \(c.callbackURLs.joined(separator: ", "))"
                    + (c.signOutURLs.isEmpty
                        ? "; no sign-out URI is registered, so /logout redirects nowhere."
                        : ", sign-out URIs \(c.signOutURLs.joined(separator: ", "))")
                    + " (docs/hosted-ui.md)."
            )
        ]
        let https = c.resolvedIssuer.lowercased().hasPrefix("https://")
        if !https {
            let local = URL(string: c.resolvedIssuer)?.host.map { ["localhost", "127.0.0.1", "::1"].contains($0) } ?? false
            findings.append(
                .warning(
                    "hosted-ui.https",
                    "The issuer \(c.resolvedIssuer) is not https: the hosted-session cookie is not Secure, Amplify (which always uses https) cannot reach the pages"
                        + (c.appleServicesID != nil && !local ? ", and Sign in with Apple by redirect cannot bind the browser." : "."),
                    fix: "Put TLS in front of Gatehouse and set GATEHOUSE_ISSUER to https://your-auth-host."
                )
            )
        }
        if c.googleWebClientID != nil {
            findings.append(
                .ok(
                    "hosted-ui.google",
                    "Google by redirect is offered: register \(c.resolvedIssuer)/oauth2/idpresponse as an authorized redirect URI of the web client."
                )
            )
        }
        if c.appleServicesID != nil {
            findings.append(
                .ok(
                    "hosted-ui.apple",
                    "Sign in with Apple by redirect is offered: add \(c.resolvedIssuer)/oauth2/idpresponse as a Return URL of the Services ID."
                )
            )
        }
        return findings
    }
}
