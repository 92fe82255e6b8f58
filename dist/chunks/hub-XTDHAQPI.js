import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  createCapabilityHub
} from "./chunk-WKLHZ5JA.js";
import {
  noCapabilities
} from "./chunk-G2PF2ULQ.js";
import "./chunk-XQWL7OYR.js";
export {
  createCapabilityHub,
  noCapabilities
};
