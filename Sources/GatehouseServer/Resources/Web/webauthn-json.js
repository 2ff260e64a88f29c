// WebAuthn's JSON forms in the browser, shared by the web page (app.js) and the hosted sign-in page
// (hosted-passkey.js): plain JavaScript, no build step. The options the server sends go to
// navigator.credentials through PublicKeyCredential.parse{Request,Creation}OptionsFromJSON and the
// credential back through its toJSON(); the converters below stand in where a browser lacks those.
//
//     GatehouseWebAuthn.requestOptions(json)    // PublicKeyCredentialRequestOptions for credentials.get
//     GatehouseWebAuthn.creationOptions(json)   // PublicKeyCredentialCreationOptions for credentials.create
//     GatehouseWebAuthn.credentialJSON(cred)    // RegistrationResponseJSON or AuthenticationResponseJSON
//     GatehouseWebAuthn.toBase64url(bytes)      // unpadded base64url of an ArrayBuffer or a typed array
'use strict';

(function () {
  function toBase64url(bytes) {
    const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let text = '';
    for (let i = 0; i < view.length; i += 0x8000) text += String.fromCharCode.apply(null, view.subarray(i, i + 0x8000));
    return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  function fromBase64url(text) {
    const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
    return Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0)).buffer;
  }

  // The credential descriptors of a JSON options object (allowCredentials, excludeCredentials) with their ids as bytes.
  function descriptors(list) {
    return (list || []).map((d) => Object.assign({}, d, { id: fromBase64url(d.id) }));
  }

  function requestOptions(json) {
    if (typeof PublicKeyCredential.parseRequestOptionsFromJSON === 'function') return PublicKeyCredential.parseRequestOptionsFromJSON(json);
    return Object.assign({}, json, { challenge: fromBase64url(json.challenge), allowCredentials: descriptors(json.allowCredentials) });
  }

  function creationOptions(json) {
    if (typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function') return PublicKeyCredential.parseCreationOptionsFromJSON(json);
    return Object.assign({}, json, {
      challenge: fromBase64url(json.challenge),
      user: Object.assign({}, json.user, { id: fromBase64url(json.user.id) }),
      excludeCredentials: descriptors(json.excludeCredentials),
    });
  }

  // RegistrationResponseJSON or AuthenticationResponseJSON.
  function credentialJSON(credential) {
    if (typeof credential.toJSON === 'function') return credential.toJSON();
    const r = credential.response;
    const response = { clientDataJSON: toBase64url(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = toBase64url(r.attestationObject);
      response.transports = typeof r.getTransports === 'function' ? r.getTransports() : [];
    } else {
      response.authenticatorData = toBase64url(r.authenticatorData);
      response.signature = toBase64url(r.signature);
      if (r.userHandle) response.userHandle = toBase64url(r.userHandle);
    }
    return {
      id: credential.id, rawId: toBase64url(credential.rawId), type: credential.type, response,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: typeof credential.getClientExtensionResults === 'function' ? credential.getClientExtensionResults() : {},
    };
  }

  window.GatehouseWebAuthn = Object.freeze({ toBase64url, fromBase64url, requestOptions, creationOptions, credentialJSON });
})();
