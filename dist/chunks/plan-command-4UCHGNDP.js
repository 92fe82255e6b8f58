import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-J36NYBY5.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-T7LCE6D6.js";
import "./chunk-2TCQS2JK.js";
import "./chunk-BE46HTGE.js";
import "./chunk-K6FIV3ZZ.js";
import "./chunk-DD7YN4GL.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
};
