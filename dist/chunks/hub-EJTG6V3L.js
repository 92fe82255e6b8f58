import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  createCapabilityHub
} from "./chunk-RHJIG47A.js";
import {
  noCapabilities
} from "./chunk-IDUEUJGQ.js";
import "./chunk-XQWL7OYR.js";
export {
  createCapabilityHub,
  noCapabilities
};
