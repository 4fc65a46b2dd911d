// Drives Meta's Node SDK (npm facebook-nodejs-business-sdk) against the
// network_a fake, as TestNodeSDK runs it, and prints what it read and
// created as one line of JSON. The SDK builds its URLs from the
// FacebookAdsApi.GRAPH and FacebookAdsApi.VERSION getters: they are pointed
// at the fake. It sends its token as it does by default, as the
// access_token parameter.
//
// node sdk.js calls   reads, creates and insights
// node sdk.js batch   one batch the SDK builds (FacebookAdsApiBatch), and
//                     the batch it answers for the entries answered null
//
// Environment: SDK_MODULE (the package's directory), GRAPH (the fake's
// scheme and host), GRAPH_VERSION ("v25.0"), USER_TOKEN, PAGE_ID,
// AD_ACCOUNT, POST_ID; for batch CAMPAIGN_ID and ADSET_ID.
'use strict';

const sdk = require(process.env.SDK_MODULE);
const {FacebookAdsApi, FacebookAdsApiBatch, User, Page, AdAccount, Ad} = sdk;

Object.defineProperty(FacebookAdsApi, 'GRAPH', {get: () => process.env.GRAPH});
Object.defineProperty(FacebookAdsApi, 'VERSION', {get: () => process.env.GRAPH_VERSION});

const env = process.env;
// The crash reporter is off: it would report to graph.facebook.com.
const api = FacebookAdsApi.init(env.USER_TOKEN, 'en_US', false);

// all reads every page of a cursor: each object's data, in order.
async function all(cursor) {
  const out = cursor.map(o => o.exportAllData());
  while (cursor.hasNext()) {
    cursor = await cursor.next();
    out.push(...cursor.map(o => o.exportAllData()));
  }
  return out;
}

// The ad set of the campaign: engagement on the page's posts, outside the
// EU, on network_a alone.
function adSetParams(name, campaignID) {
  return {
    name: name, campaign_id: campaignID, daily_budget: 2000, status: 'ACTIVE',
    bid_strategy: 'LOWEST_COST_WITHOUT_CAP', billing_event: 'IMPRESSIONS',
    optimization_goal: 'POST_ENGAGEMENT', destination_type: 'ON_POST',
    promoted_object: {page_id: env.PAGE_ID},
    targeting: {
      geo_locations: {countries: ['US']}, publisher_platforms: ['network_a'],
      targeting_automation: {advantage_audience: 0},
    },
  };
}

async function calls() {
  const out = {};
  out.me = (await new User('me', {}, null, api).read()).exportAllData();
  const me = new User('me', {}, null, api);
  out.adAccounts = await all(await me.getAdAccounts(['id', 'name', 'account_status', 'currency',
    'timezone_name', 'disable_reason', 'default_dsa_beneficiary', 'default_dsa_payor', 'min_daily_budget']));
  out.pages = await all(await me.getAccounts(['id', 'name', 'access_token']));

  const page = out.pages.find(p => p.id === env.PAGE_ID);
  const pageApi = new FacebookAdsApi(page.access_token, 'en_US', false);
  const posts = new Page(env.PAGE_ID, {}, null, pageApi);
  out.posts = await all(await posts.getPosts(['id', 'message', 'created_time'], {limit: 2}));

  const account = new AdAccount(env.AD_ACCOUNT, {}, null, api);
  const campaign = await account.createCampaign([], {
    name: 'sdk-campaign', objective: 'OUTCOME_ENGAGEMENT', status: 'ACTIVE',
    special_ad_categories: [], is_adset_budget_sharing_enabled: false,
  });
  const adSet = await account.createAdSet([], adSetParams('sdk-adset', campaign.id));
  const ad = await account.createAd([], {
    name: 'sdk-ad', adset_id: adSet.id, status: 'ACTIVE',
    creative: {object_story_id: env.POST_ID},
  });
  out.created = {campaign: campaign.id, adSet: adSet.id, ad: ad.id};
  out.campaigns = await all(await account.getCampaigns(['id', 'name', 'objective']));
  out.adSets = await all(await account.getAdSets(['id', 'name', 'campaign_id']));
  out.ads = await all(await account.getAds(['id', 'name', 'adset_id']));
  out.insights = await all(await new Ad(ad.id, {}, null, api).getInsights(
    ['impressions', 'reach', 'clicks', 'spend', 'actions'], {date_preset: 'maximum'}));
  return out;
}

// run executes a batch: each entry's answer by its index (an entry
// answered null has none), and the batch the SDK answers for the entries
// answered null.
async function run(entries) {
  const batch = new FacebookAdsApiBatch(api);
  const answers = {};
  entries.forEach((e, i) => {
    const done = r => { answers[i] = {status: r.status, body: r.body}; };
    batch.add(e.method, e.path, e.params, null, done, done);
  });
  const retry = await batch.execute();
  return {batch, answers, retry};
}

// sent are a batch's entries as the SDK sends them.
function sent(batch) {
  return batch._batch.map(({method, relative_url, body}) => ({method, relative_url, body}));
}

async function batch() {
  const entries = [
    {method: 'GET', path: env.CAMPAIGN_ID, params: {fields: 'id,name,objective,status'}},
    {method: 'POST', path: env.ADSET_ID, params: {status: 'PAUSED'}},
    {method: 'POST', path: env.AD_ACCOUNT + '/adsets', params: adSetParams('sdk-adset-2', env.CAMPAIGN_ID)},
    {method: 'POST', path: env.AD_ACCOUNT + '/adsets', params: adSetParams('sdk-adset-3', env.CAMPAIGN_ID)},
    {method: 'GET', path: 'me/adaccounts', params: {fields: 'id,currency'}},
  ];
  const first = await run(entries);
  const out = {first: {sent: sent(first.batch), answers: {...first.answers}}};
  if (first.retry) {
    // The SDK's batch of the entries answered null keeps their callbacks:
    // its answers land under the entries' first indexes.
    const again = await first.retry.execute();
    const answers = {};
    for (const i of Object.keys(first.answers)) {
      if (!(i in out.first.answers)) answers[i] = first.answers[i];
    }
    out.retry = {sent: sent(first.retry), answers, again: Boolean(again)};
  }
  return out;
}

const phases = {calls, batch};
phases[process.argv[2]]().then(
  out => { process.stdout.write(JSON.stringify(out) + '\n'); },
  err => {
    const detail = err && err.response ? JSON.stringify(err.response) : '';
    process.stderr.write(String(err && err.stack || err) + '\n' + detail + '\n');
    process.exit(1);
  });
