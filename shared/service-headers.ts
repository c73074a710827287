/**
 * Headers with which a daemon's chat commands call the REST API as the chat service: the shared
 * service token, and the (percent-encoded) voice-server nickname the call acts for.
 */
export const SERVICE_TOKEN_HEADER = 'x-service-token';
export const ACT_FOR_HEADER = 'x-act-for';
