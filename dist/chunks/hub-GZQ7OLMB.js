import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  createCapabilityHub
} from "./chunk-TBPRJM5X.js";
import {
  noCapabilities
} from "./chunk-EDZDFG2U.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  createCapabilityHub,
  noCapabilities
};
