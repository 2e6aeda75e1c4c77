/**
 * Demo-data vocabulary: city/state/ZIP5/area-code combinations, street names, given
 * names and surnames. Our own compilation (MIT). Each place is a real city with one of
 * its real ZIP codes and a real area code serving it, so generated rows look plausible;
 * the phone numbers built from them are in the fictional 555-0100…0199 range only.
 */
export interface DemoPlace {
  city: string;
  state: string;
  zip5: string;
  areaCode: string;
}

const PLACES = `New York|NY|10001|212; Brooklyn|NY|11215|718; Buffalo|NY|14201|716; Rochester|NY|14604|585;
Albany|NY|12207|518; Los Angeles|CA|90012|213; Beverly Hills|CA|90210|310; San Diego|CA|92101|619;
San Francisco|CA|94110|415; Sacramento|CA|95814|916; Fresno|CA|93721|559; Oakland|CA|94612|510;
San Jose|CA|95113|408; Chicago|IL|60614|312; Springfield|IL|62701|217; Naperville|IL|60540|630;
Houston|TX|77002|713; Dallas|TX|75201|214; Austin|TX|78701|512; San Antonio|TX|78205|210;
El Paso|TX|79901|915; Fort Worth|TX|76102|817; Phoenix|AZ|85004|602; Tucson|AZ|85701|520;
Philadelphia|PA|19103|215; Pittsburgh|PA|15222|412; Harrisburg|PA|17101|717; Jacksonville|FL|32202|904;
Miami|FL|33130|305; Tampa|FL|33602|813; Orlando|FL|32801|407; Tallahassee|FL|32301|850;
Columbus|OH|43215|614; Cleveland|OH|44113|216; Cincinnati|OH|45202|513; Indianapolis|IN|46204|317;
Fort Wayne|IN|46802|260; Charlotte|NC|28202|704; Raleigh|NC|27601|919; Greensboro|NC|27401|336;
Seattle|WA|98101|206; Spokane|WA|99201|509; Tacoma|WA|98402|253; Denver|CO|80202|303;
Colorado Springs|CO|80903|719; Boston|MA|02108|617; Worcester|MA|01608|508; Springfield|MA|01103|413;
Nashville|TN|37203|615; Memphis|TN|38103|901; Knoxville|TN|37902|865; Detroit|MI|48226|313;
Grand Rapids|MI|49503|616; Lansing|MI|48933|517; Portland|OR|97204|503; Eugene|OR|97401|541;
Las Vegas|NV|89101|702; Reno|NV|89501|775; Baltimore|MD|21202|410; Milwaukee|WI|53202|414;
Madison|WI|53703|608; Albuquerque|NM|87102|505; Santa Fe|NM|87501|505; Louisville|KY|40202|502;
Lexington|KY|40507|859; Oklahoma City|OK|73102|405; Tulsa|OK|74103|918; Kansas City|MO|64106|816;
St. Louis|MO|63101|314; Omaha|NE|68102|402; Lincoln|NE|68508|402; Minneapolis|MN|55401|612;
St. Paul|MN|55102|651; Atlanta|GA|30303|404; Savannah|GA|31401|912; New Orleans|LA|70112|504;
Baton Rouge|LA|70801|225; Birmingham|AL|35203|205; Montgomery|AL|36104|334; Salt Lake City|UT|84101|801;
Boise|ID|83702|208; Des Moines|IA|50309|515; Little Rock|AR|72201|501; Jackson|MS|39201|601;
Richmond|VA|23219|804; Virginia Beach|VA|23451|757; Arlington|VA|22201|703; Washington|DC|20001|202;
Wilmington|DE|19801|302; Newark|NJ|07102|973; Jersey City|NJ|07302|201; Trenton|NJ|08608|609;
Hartford|CT|06103|860; New Haven|CT|06510|203; Providence|RI|02903|401; Burlington|VT|05401|802;
Manchester|NH|03101|603; Portland|ME|04101|207; Charleston|SC|29401|843; Columbia|SC|29201|803;
Charleston|WV|25301|304; Wichita|KS|67202|316; Fargo|ND|58102|701; Sioux Falls|SD|57104|605;
Billings|MT|59101|406; Cheyenne|WY|82001|307; Anchorage|AK|99501|907; Honolulu|HI|96813|808;
San Juan|PR|00901|787`;

export const DEMO_PLACES: readonly DemoPlace[] = PLACES.split(';').map((entry) => {
  const [city, state, zip5, areaCode] = entry.trim().split('|') as [string, string, string, string];
  return { city, state, zip5, areaCode };
});

/** Street names as they might appear in a source file (suffix chosen separately). */
export const DEMO_STREETS: readonly string[] = (
  'Main,Oak,Maple,Cedar,Elm,Pine,Washington,Lake,Hill,Park,Walnut,Chestnut,Spruce,Willow,Birch,Cherry,' +
  'Lincoln,Jefferson,Madison,Franklin,Jackson,Adams,Monroe,Grant,Wilson,Cleveland,Harrison,Church,Mill,' +
  'Forest,Spring,Meadow,Sunset,Highland,Ridge,River,Lakeview,Hillcrest,Dogwood,Magnolia,Sycamore,Locust,' +
  'Poplar,Laurel,Holly,Heritage,Colonial,Summit,Prospect,Pleasant,Valley,Orchard,Woodland,Fairview,Green,' +
  'Union,College,School,Academy,Railroad,Depot,Water,Bridge,Country Club,Canyon,Mesa,Vista,Del Mar,' +
  'Old Mill,Quail Run,Deer Creek,Fox Hollow,Indian Trail,Shady Lane,Mountain View,Riverside,Bayview,' +
  '1st,2nd,3rd,4th,5th,6th,7th,8th,9th,10th,12th,14th,21st,St Charles,St James,Mt Vernon'
).split(',');

/** Suffixes weighted roughly by US frequency (ST, AVE, DR, RD, LN … first and repeated). */
export const DEMO_SUFFIXES: readonly string[] =
  'St,St,St,St,Ave,Ave,Ave,Dr,Dr,Dr,Rd,Rd,Ln,Ln,Ct,Ct,Blvd,Way,Way,Pl,Cir,Ter,Pkwy,Trl,Loop,Hwy,Sq,Pike,Row'.split(',');

export const DEMO_FIRST_NAMES: readonly string[] = (
  'James,Robert,John,Michael,William,David,Richard,Joseph,Thomas,Charles,Christopher,Daniel,Matthew,' +
  'Anthony,Mark,Donald,Steven,Paul,Andrew,Joshua,Kenneth,Kevin,Brian,George,Timothy,Ronald,Edward,' +
  'Jason,Jeffrey,Ryan,Jacob,Gary,Nicholas,Eric,Jonathan,Stephen,Larry,Justin,Scott,Brandon,Benjamin,' +
  'Samuel,Gregory,Alexander,Patrick,Frank,Raymond,Jack,Dennis,Jerry,Jose,Luis,Carlos,Juan,Miguel,' +
  'Mary,Patricia,Jennifer,Linda,Elizabeth,Barbara,Susan,Jessica,Sarah,Karen,Lisa,Nancy,Betty,Margaret,' +
  'Sandra,Ashley,Kimberly,Emily,Donna,Michelle,Carol,Amanda,Dorothy,Melissa,Deborah,Stephanie,Rebecca,' +
  'Sharon,Laura,Cynthia,Kathleen,Amy,Angela,Shirley,Anna,Brenda,Pamela,Emma,Nicole,Helen,Samantha,' +
  'Katherine,Christine,Debra,Rachel,Carolyn,Janet,Catherine,Maria,Heather,Diane,Julie,Joyce,Victoria,' +
  'Guadalupe,José,Zoë,Renée,Chloé,Noël'
).split(',');

export const DEMO_LAST_NAMES: readonly string[] = (
  'Smith,Johnson,Williams,Brown,Jones,Garcia,Miller,Davis,Rodriguez,Martinez,Hernandez,Lopez,Gonzalez,' +
  'Wilson,Anderson,Thomas,Taylor,Moore,Jackson,Martin,Lee,Perez,Thompson,White,Harris,Sanchez,Clark,' +
  'Ramirez,Lewis,Robinson,Walker,Young,Allen,King,Wright,Scott,Torres,Nguyen,Hill,Flores,Green,Adams,' +
  'Nelson,Baker,Hall,Rivera,Campbell,Mitchell,Carter,Roberts,Gomez,Phillips,Evans,Turner,Diaz,Parker,' +
  'Cruz,Edwards,Collins,Reyes,Stewart,Morris,Morales,Murphy,Cook,Rogers,Gutierrez,Ortiz,Morgan,Cooper,' +
  'Peterson,Bailey,Reed,Kelly,Howard,Ramos,Kim,Cox,Ward,Richardson,Watson,Brooks,Chavez,Wood,James,' +
  "Bennett,Gray,Mendoza,Ruiz,Hughes,Price,Alvarez,Castillo,Sanders,Patel,Myers,Long,Ross,Foster,O'Brien," +
  "McDonald,Peña,Muñoz,García-López,De La Cruz,Van Dyke,St. John,O'Connor,Nuñez"
).split(',');
