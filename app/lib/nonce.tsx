import { createContext, useContext } from "react";

/** Per-request values the server renders into the page, read back on hydration. */
export const RequestContext = createContext<{ nonce?: string; requestId?: string }>({});

export const useNonce = () => useContext(RequestContext).nonce;
export const useRequestId = () => useContext(RequestContext).requestId;
