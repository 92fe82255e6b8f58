import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-CLW6MH7E.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-CAZLSVU7.js";
import "./chunk-4DLCFCNW.js";
import "./chunk-BE46HTGE.js";
import "./chunk-K6FIV3ZZ.js";
import "./chunk-AWMPXBLP.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
};
